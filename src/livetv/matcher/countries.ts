/**
 * The country a text names, for the hints that break ties between guide channels of one name
 * (guide-index.ts): a playlist group (`UK | News`, `CANADA`, `Deutschland | Sport`), a
 * `tvg-country`, a code on its own or a flag.
 */
import { leadingRun } from './edges.js';
import { fold, prepared } from './read-name.js';
import { isCountry } from './shapes.js';

/**
 * Countries by name, in English and as they name themselves, to their ISO code: a playlist group
 * that names a country (`CANADA`, `Deutschland | Sport`) says where its channels are from.
 */
const COUNTRY_NAMES: ReadonlyMap<string, string> = new Map(
  `afghanistan:af albania:al algeria:dz andorra:ad angola:ao argentina:ar armenia:am australia:au austria:at
  österreich:at azerbaijan:az bahamas:bs bahrain:bh bangladesh:bd belarus:by belgium:be belgique:be belgie:be
  belize:bz benin:bj bhutan:bt bolivia:bo bosnia:ba botswana:bw brazil:br brasil:br brunei:bn bulgaria:bg
  cambodia:kh cameroon:cm canada:ca chile:cl china:cn colombia:co congo:cd croatia:hr hrvatska:hr cuba:cu
  cyprus:cy czechia:cz czech:cz denmark:dk danmark:dk dominicana:do ecuador:ec egypt:eg estonia:ee eesti:ee
  ethiopia:et finland:fi suomi:fi france:fr germany:de deutschland:de ghana:gh greece:gr hellas:gr
  guatemala:gt honduras:hn hungary:hu magyarorszag:hu iceland:is india:in indonesia:id iran:ir iraq:iq
  ireland:ie israel:il italy:it italia:it jamaica:jm japan:jp jordan:jo kazakhstan:kz kenya:ke kosovo:xk
  kuwait:kw kyrgyzstan:kg laos:la latvia:lv lebanon:lb libya:ly lithuania:lt lietuva:lt luxembourg:lu
  macedonia:mk malaysia:my maldives:mv mali:ml malta:mt mexico:mx méxico:mx moldova:md monaco:mc mongolia:mn
  montenegro:me morocco:ma maroc:ma mozambique:mz myanmar:mm namibia:na nepal:np netherlands:nl nederland:nl
  holland:nl nicaragua:ni nigeria:ng norway:no norge:no oman:om pakistan:pk palestine:ps panama:pa
  paraguay:py peru:pe perú:pe philippines:ph pilipinas:ph poland:pl polska:pl portugal:pt qatar:qa
  romania:ro românia:ro russia:ru rossiya:ru россия:ru rwanda:rw senegal:sn serbia:rs srbija:rs
  singapore:sg slovakia:sk slovenia:si slovenija:si somalia:so españa:es espana:es spain:es sudan:sd
  sweden:se sverige:se switzerland:ch schweiz:ch suisse:ch svizzera:ch syria:sy taiwan:tw tajikistan:tj
  tanzania:tz thailand:th tunisia:tn turkey:tr türkiye:tr turkiye:tr uganda:ug ukraine:ua україна:ua
  ukraina:ua uk:uk england:uk britain:uk scotland:uk wales:uk usa:us uruguay:uy uzbekistan:uz
  venezuela:ve vietnam:vn yemen:ye zambia:zm zimbabwe:zw`
    .split(/\s+/)
    .filter((pair) => pair !== '')
    .map((pair) => pair.split(':') as [string, string]),
);

/** Countries named in two words or more. */
const COUNTRY_PHRASES: ReadonlyMap<string, string> = new Map([
  ['united states', 'us'],
  ['united kingdom', 'uk'],
  ['great britain', 'uk'],
  ['south africa', 'za'],
  ['new zealand', 'nz'],
  ['saudi arabia', 'sa'],
  ['south korea', 'kr'],
  ['north macedonia', 'mk'],
  ['czech republic', 'cz'],
  ['dominican republic', 'do'],
  ['el salvador', 'sv'],
  ['costa rica', 'cr'],
  ['puerto rico', 'pr'],
  ['sri lanka', 'lk'],
  ['hong kong', 'hk'],
  ['united arab emirates', 'ae'],
  ['trinidad and tobago', 'tt'],
]);

/**
 * The country or language a text names: a code on its own (`USA`, `uk`, a flag), a prefix
 * (`UK | News`, `◉ CA ◉ News`), or a country's name (`CANADA`, `Deutschland | Sport`).
 * @example countryOf('UK | Entertainment') // 'uk'
 */
export function countryOf(text: string): string | undefined {
  const t = prepared(text);
  if (isCountry(t)) return t.toLowerCase().replace(/-/g, '');
  // A word after it, so that a prefix with nothing after (`UK |`) is read as one.
  const code = leadingRun(`${t} ⁝ group`, fold).country;
  if (code !== undefined) return code;
  // A country's name (`CANADA`, `Deutschland | Sport`, `United Kingdom`).
  const words = fold(t).split(/[^\p{L}\p{N}]+/u);
  for (let i = 0; i < words.length; i++) {
    const named = COUNTRY_NAMES.get(words[i]!) ?? COUNTRY_PHRASES.get(`${words[i]} ${words[i + 1]}`);
    if (named !== undefined) return named;
    const three = COUNTRY_PHRASES.get(words.slice(i, i + 3).join(' '));
    if (three !== undefined) return three;
  }
  return undefined;
}
