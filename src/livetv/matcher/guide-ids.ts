/**
 * What a guide channel's id says: the country an iptv-org-style id names (`BBCOne.uk`), a hint
 * that breaks ties between channels of one name, and its stem, which tells two copies of one
 * channel (`DasErste.de`, `DasErsteHD.de`) from two channels.
 */
import { COUNTRY2 } from './vocabulary.js';

/**
 * The country an iptv-org-style guide id names (`BBCOne.uk`, `CNN.us@East`), if any.
 * @example countryOfId('BBCOne.uk@HD') // 'uk'
 */
export function countryOfId(id: string): string | undefined {
  const m = /\.([a-z]{2})(?:@[^.]*)?$/i.exec(id);
  const code = m?.[1]?.toLowerCase();
  return code !== undefined && COUNTRY2.has(code) ? code : undefined;
}

/**
 * A guide channel id without what tells two copies of one channel apart: case, an iptv-org
 * `@feed`, a quality tag at the end of its name part.
 * @example idStem('DasErsteHD.de') === idStem('DasErste.de@SD') // true
 */
export function idStem(id: string): string {
  const base = baseId(id);
  const dot = base.lastIndexOf('.');
  const name = dot > 0 ? base.slice(0, dot) : base;
  return name.replace(/[-_ ]?(?:[fu]?hd|sd|4k|hevc)$/, '') + (dot > 0 ? base.slice(dot) : '');
}

/** A guide id without its iptv-org feed suffix, lower-cased (match.ts's `baseId`). */
function baseId(id: string): string {
  const at = id.lastIndexOf('@');
  return (at > 0 ? id.slice(0, at) : id).trim().toLowerCase();
}

/** Country codes as providers and guides write them, to one form: `gb`, `gbr` → `uk`; `usa` → `us`. */
const ALIASES: Readonly<Record<string, string>> = {
  gb: 'uk',
  gbr: 'uk',
  usa: 'us',
  deu: 'de',
  ger: 'de',
  fra: 'fr',
  esp: 'es',
  ita: 'it',
  nld: 'nl',
  ned: 'nl',
  prt: 'pt',
  por: 'pt',
  bra: 'br',
  can: 'ca',
  aus: 'au',
  rus: 'ru',
  tur: 'tr',
  pol: 'pl',
  swe: 'se',
  nor: 'no',
  dnk: 'dk',
  den: 'dk',
  che: 'ch',
  sui: 'ch',
  aut: 'at',
  bel: 'be',
  mex: 'mx',
  arg: 'ar',
  ind: 'in',
};

/** Do country codes `a` (an id's) and `b` (a playlist's hint) name one country? */
export function sameCountry(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  return (ALIASES[a] ?? a) === (ALIASES[b] ?? b);
}
