/**
 * Reads a channel name as written in the wild into what identifies the channel and what does
 * not. `|UK| BBC One Scotland FHD`, `BBC One Scotland (1080p) [Geo-blocked]` and
 * `bbc one scotland ʰᵈ` all read as the tokens `bbc 1 scotland` with the country hint `uk`.
 *
 * Dropped: a country or language prefix (`UK: `, `|UK| `, `[UK] `, `UK - `, `DE ★ `, `EX-YU: `, `UK-`),
 * quality and format tags wherever they stand (`HD`, `FHD`, `4K`, `HEVC`, `H.265`, `50FPS`,
 * `(1080p)`, `ᴴᴰ`), iptv-org's notes and panels' labels in brackets (`[Geo-blocked]`,
 * `[Not 24/7]`, `(Backup)`), punctuation, case and accents. Kept: every other word, numbers
 * (`Fox Sports 1` is not `Fox Sports 2`), a `+` that is part of the name (`ATV +`, `Canal+`),
 * and a time shift (`+1`) apart, since only a channel with the same shift may match. Cyrillic and
 * Greek are transliterated to Latin, so `Россия 24` reads as `rossiya 24`.
 */
import { type CallSign, readCallSign } from './call-sign.js';
import {
  type Learned,
  leadCandidate,
  leadingRun,
  type NameEdges,
  numberedPrefix,
  trailCandidate,
  trailingRun,
} from './edges.js';
import {
  flagsAsCodes,
  isCountry,
  isTag,
  namesSomething,
  smallCapitals,
  TAG_MARK,
  withoutStyledTags,
} from './shapes.js';
import { COUNTRY2, COUNTRY3, CYRILLIC, GREEK, NOTE_WORDS, NUMBER_WORDS, QUALITY_PHRASES } from './vocabulary.js';

/** How to read a name. */
export interface ReadOptions {
  /** What its playlist was found to write around its names (decoration.ts). */
  readonly learned?: Learned;
  /** Filled with what the learning pass needs of its edges. */
  readonly edges?: NameEdges;
}

/** A channel name read into its identity. */
export interface NameReading {
  /** What identifies the channel, in order: lower-case Latin (or the name's own script) words, numbers and `+`. */
  readonly tokens: readonly string[];
  /** Per token: was it inside brackets (`Россия 24 (Благовещенск)`): a feed or region, often. */
  readonly bracketed: readonly boolean[];
  /** A time shift written in the name (`+1` → 1), 0 when none. */
  readonly shift: number;
  /** The country or language a prefix, suffix or bracket named (`uk`, `usa`, `ar`), as written, lower-cased. */
  readonly country?: string;
  /** A North American station's call sign, where the name writes one as such (`(WFLD)`, `KMSP-DT1`). */
  readonly call?: CallSign;
}

/** Hours a `+N` mark may shift by; a larger number is part of the name (`Canal +24`? no: `+24` stays). */
const MAX_SHIFT = 12;

/**
 * Characters of a name read at most: what identifies a channel is in its first words, and a name
 * of any length costs the reader and the scored stage no more than one of this length.
 */
export const MAX_NAME = 300;
/** Tokens of a name kept at most. */
export const MAX_TOKENS = 32;

/**
 * A name as its edges are read: at most MAX_NAME characters; flags as the codes they spell;
 * letters in a style of their own beside plain ones (`ᴴᴰ`, `ʀᴀᴡ`) set aside as tags; compatibility
 * forms as their plain letters (NFKC), small capitals as capitals; spaces and control characters
 * as one space. `styled` collects the tags set aside by their style.
 */
export function prepared(name: string, styled?: string[]): string {
  let text = name.length > MAX_NAME ? name.slice(0, MAX_NAME) : name;
  if (NON_ASCII.test(text)) {
    text = smallCapitals(withoutStyledTags(flagsAsCodes(text), styled).normalize('NFKC')).replace(/[’‘ʼ`´]/g, "'");
  }
  return text.replace(/[\u0000-\u001f\s]+/g, ' ').trim();
}

/**
 * Reads a channel name; `learned`: what its playlist was found to write around its names.
 * @example readName('|UK| BBC One Scotland FHD') // { tokens: ['bbc', '1', 'scotland'], shift: 0, country: 'uk' }
 */
export function readName(name: string, options: ReadOptions = {}): NameReading {
  const { learned, edges } = options;
  let text = prepared(name, edges?.tags);
  const lead = leadingRun(text, fold, learned);
  if (edges !== undefined) {
    // A number the name starts with, set apart (`101 | CA | CBC`): its run and first word are after it.
    const numbering = lead.run === '' ? numberedPrefix(text) : 0;
    const seen = numbering > 0 ? leadingRun(text.slice(numbering), fold) : lead;
    if (numbering > 0) edges.numbered = true;
    edges.run = seen.run;
    if (seen.country !== undefined) edges.country = seen.country;
    const word = leadCandidate(seen.text, fold);
    if (word !== undefined) edges.lead = word;
  }
  text = lead.text;
  let country = lead.country;
  // A code glued to the name by a hyphen, in capitals (`UK-BBC ONE`, `DE-ZDF`), when the rest
  // still names something: `RU-TV`, `TV-3`, `AL-JAZEERA` and `Al-Jazeera` are names.
  if (country === undefined) {
    const glued = GLUED_PREFIX.exec(text);
    const code = glued?.[1]?.toLowerCase();
    // A country's code only: language codes glue as words (`HI-YAH!`).
    if (glued && code && (COUNTRY2.has(code) || COUNTRY3.has(code)) && !GLUED_NOT_CODES.has(code)) {
      const rest = text.slice(glued[0].length);
      const words = rest.toLowerCase().split(/[^\p{L}\p{N}]+/u);
      // The first word is a word of three or more (`YU-GI-OH!` is a name), and some word is not a tag or `TV`.
      if ((words[0] ?? '').length >= 3 && words.some(namesSomething)) {
        country = code;
        text = rest;
      }
    }
  }
  // A station's call sign, written plainly (call-sign.ts), before case is lost.
  const station = readCallSign(text);
  text = station.text;
  text = NON_ASCII.test(text) ? fold(text) : text.toLowerCase();
  // A panel's duplicate number at the end (`BBC One HD #2`) is not part of the name.
  text = text
    .replace(QUALITY_PHRASES, (phrase) => {
      edges?.tags.push(phrase.replace(/\d/g, '#'));
      return TAG_MARK;
    })
    .replace(/\s#\d{1,2}\s*$/, ' ');
  const trail = trailingRun(text, learned);
  text = trail.text;
  country ??= trail.country;
  if (edges !== undefined) {
    edges.tags.push(...trail.removed);
    const last = trailCandidate(text, edges.tags);
    if (last.word !== undefined) {
      edges.trail = last.word;
      edges.trailApart = last.apart;
    }
    edges.number = last.number;
  }
  // Brackets of any kind (`()`, `⟦⟧`, `【】`): notes and tags go; a country code is a hint;
  // anything else is part of the name (`Россия 24 (Благовещенск)`, `ABC (KERO)`).
  text = text.replace(/\p{Ps}([^\p{Ps}\p{Pe}]*)\p{Pe}/gu, (_all, inner: string) => {
    const words = inner.split(/[^\p{L}\p{N}/+]+/u).filter((w) => w !== '');
    if (words.length === 1 && isCountry(words[0]!)) {
      country ??= words[0]!;
      return ' ';
    }
    if (words.every((w) => NOTE_WORDS.has(w) || isTag(w))) return ' ';
    // A panel's note with its number (`(Backup 2)`, `[Source 1]`) is a note too.
    if (
      words.some((w) => NOTE_WORDS.has(w)) &&
      words.every((w) => NOTE_WORDS.has(w) || isTag(w) || /^\d{1,2}$/.test(w))
    ) {
      return ' ';
    }
    // A time shift in brackets (`ITV 1 (+1)`) is read as one written plainly.
    if (/^\s*\+\s?\d{1,2}\s?h?\s*$/.test(inner)) return ` ${inner.replace(/\s+/g, '')} `;
    return ` ${OPEN}${inner}${CLOSE} `;
  });
  // A time shift: `Arte +1`, `Sky Atlantic +1HD` (a tag glued to it), or glued to the name at
  // its end (`FOX8+2`); `Canal+ 1` is `Canal+`'s channel 1.
  let shift = 0;
  const shifted = (all: string, lead: string, hours: string) => {
    const n = Number(hours);
    if (n === 0 || n > MAX_SHIFT || shift !== 0) return all;
    shift = n;
    return `${lead} `;
  };
  text = text
    .replace(/(\+\s?\d{1,2})([fuq]?hd|sd|hevc)(?![\p{L}\p{N}])/gu, '$1 $2')
    .replace(/(^|\s)\+\s?(\d{1,2})(?:\s?h)?(?![\p{L}\p{N}])/gu, shifted)
    .replace(/([\p{L}\p{N}])\+(\d{1,2})(?:h)?\s*$/u, shifted);
  const raw: string[] = [];
  const inside: boolean[] = [];
  let depth = 0;
  for (const part of text.split(/([\u0001\u0002])/)) {
    if (part === OPEN) depth++;
    else if (part === CLOSE) depth = Math.max(0, depth - 1);
    else {
      for (const word of part.split(/[^\p{L}\p{N}+&']+/u)) {
        for (const token of splitWord(word)) {
          if (raw.length >= MAX_TOKENS * 2) break;
          raw.push(token);
          inside.push(depth > 0);
        }
      }
    }
  }
  const keep = raw.map(
    (t, i) =>
      !(
        isTagToken(t, raw[i + 1]) ||
        (t === '+' && i > 0 && isTagToken(raw[i - 1]!, '+')) ||
        // A resolution after a quality word (`HD 1080`, `UHD 2160`) is part of the tag.
        (RESOLUTIONS.has(t) && i > 0 && /^[fuq]?hd$|^sd$/.test(raw[i - 1]!))
      ),
  );
  const any = keep.some(Boolean);
  const tokens: string[] = [];
  const bracketed: boolean[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (any && !keep[i]) continue;
    tokens.push(raw[i]!);
    bracketed.push(inside[i]!);
  }
  joinLetters(tokens, bracketed);
  if (tokens.length > MAX_TOKENS) {
    tokens.length = MAX_TOKENS;
    bracketed.length = MAX_TOKENS;
  }
  for (let i = 0; i < tokens.length; i++) tokens[i] = NUMBER_WORDS.get(tokens[i]!) ?? tokens[i]!;
  return {
    tokens,
    bracketed,
    shift,
    ...(country !== undefined ? { country } : {}),
    ...(station.call !== undefined ? { call: station.call } : {}),
  };
}

/** Marks around the words of a bracket, while the name is read. */
const OPEN = '\u0001';
const CLOSE = '\u0002';

/** Lines of a picture, written bare after a quality word. */
const RESOLUTIONS = new Set(['480', '540', '576', '720', '1080', '1440', '2160', '4320']);

/** `UK-BBC ONE`: a code in capitals, a hyphen, and a capital letter. */
const GLUED_PREFIX = /^([A-Z]{2,3})-(?=\p{Lu})/u;
/** Codes that glue to a name as a word of it: articles (`AL-JAZEERA`, `EL-...`) and `TV`. */
const GLUED_NOT_CODES = new Set(['al', 'el', 'tv']);

const NON_ASCII = /[^\x00-\x7f]/;
const TRANSLITERATED = /[\u0370-\u03ff\u0400-\u04ff]/;

/** A token that is a tag: a quality word, or the `hd` of `HD+` (`next` is the token after it). */
function isTagToken(token: string, next: string | undefined): boolean {
  if (token === '+') return false;
  return isTag(token) || (next === '+' && /^[fuq]?hd$/.test(token));
}

/** Lower case, no accents, Latin for Cyrillic and Greek; `&` between letters kept (`A&E`). */
export function fold(text: string): string {
  const lower = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase() // folds ß to SS
    .toLowerCase()
    .normalize('NFC');
  if (!TRANSLITERATED.test(lower)) return lower;
  let out = '';
  for (const ch of lower) out += CYRILLIC[ch] ?? GREEK[ch] ?? ch;
  return out;
}

/**
 * One word of a name into tokens: letters and digits apart (`hsn2` → `hsn 2`, `tv5monde` →
 * `tv 5 monde`), a `+` apart (`canal+` → `canal +`), `&` inside a word dropped (`a&e` → `ae`),
 * a leading `&` read as "and" (`&xplor` → `andxplor`), apostrophes dropped (`d'azur` → `dazur`).
 * Quality tags glued to letters (`1080p`, `4k`) stay whole so they are recognised.
 */
function splitWord(word: string): string[] {
  if (word === '') return [];
  if (/^&+$/.test(word)) return ['and'];
  let w = word.replace(/'/g, '');
  w = w.replace(/^&+(?=\p{L})/u, 'and').replace(/(?<=\p{L})&+(?=\p{L})/gu, '');
  const out: string[] = [];
  for (const part of w.split(/(\++)/)) {
    if (part === '') continue;
    if (part.startsWith('+')) {
      out.push('+');
      continue;
    }
    for (const piece of part.split('&')) {
      if (piece === '') continue;
      if (isTag(piece)) {
        out.push(piece);
        continue;
      }
      for (const run of piece.match(/\p{N}+|\P{N}+/gu) ?? []) out.push(run);
    }
  }
  return out;
}

/** Runs of two or more single letters are one word, in place: `T V N` → `tvn`, `A E` → `ae`. */
function joinLetters(tokens: string[], bracketed: boolean[]): void {
  for (let i = 0; i < tokens.length; i++) {
    if (!isLetter(tokens[i]!)) continue;
    let j = i + 1;
    while (j < tokens.length && isLetter(tokens[j]!) && bracketed[j] === bracketed[i]) j++;
    if (j - i > 1) {
      tokens.splice(i, j - i, tokens.slice(i, j).join(''));
      bracketed.splice(i, j - i, bracketed[i]!);
    }
  }
}

function isLetter(token: string): boolean {
  return token.length === 1 && /\p{L}/u.test(token);
}
