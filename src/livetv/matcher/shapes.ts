/**
 * What a part of a name is, by its shape: a code (a country, language or region, as ISO and
 * panels write them), a tag (a resolution, frame rate, codec or quality word, `\d{3,4}[pi]`,
 * `\d{2,3}fps`, `h265`), a mark (any character that is neither a letter, a digit nor one a name
 * is written with), letters set apart by their style (superscript or small capitals beside plain
 * letters, `BBC One ᴴᴰ`, `ʙʙᴄ ᴏɴᴇ NFT`) and a flag (two regional indicators, `🇨🇦`, are the
 * code `CA`). No mark, tag word or channel name is listed here: the rules are about shapes.
 */
import {
  COUNTRY2,
  COUNTRY3,
  LANGUAGE2,
  LANGUAGE3,
  QUALITY_PATTERNS,
  QUALITY_WORDS,
  REGIONS,
  WEAK_WORDS,
} from './vocabulary.js';

/** A country's, a language's or a region's code (`uk`, `usa`, `ar`, `ex-yu`), in any case. */
export function isCountry(code: string): boolean {
  const c = code.toLowerCase();
  return COUNTRY2.has(c) || COUNTRY3.has(c) || LANGUAGE2.has(c) || REGIONS.has(c);
}

/** A code a panel writes as a prefix: a country's, a language's or a region's (`ENG` names a language only). */
export function isCode(word: string): boolean {
  return isCountry(word) || LANGUAGE3.has(word.toLowerCase());
}

/** A tag by its shape or its word: `hd`, `hevc`, `1080p`, `576i`, `50fps`, `h265`, `fhd2`. */
export function isTag(word: string): boolean {
  const w = word.toLowerCase();
  if (QUALITY_WORDS.has(w)) return true;
  // Every pattern holds a digit or an `hd`/`sd`: most words need no regular expression.
  return (DIGIT.test(w) || w.includes('hd') || w.includes('sd')) && QUALITY_PATTERNS.some((p) => p.test(w));
}

const DIGIT = /\d/;

/** A word that says something of the channel: two letters or more, not a tag nor a word for "TV". */
export function namesSomething(word: string): boolean {
  const w = word.toLowerCase();
  return /\p{L}{2}/u.test(w) && !isTag(w) && !WEAK_WORDS.has(w);
}

/** A bare number shaped like a picture's lines (`1080`, `576`): a tag where a playlist writes it as one. */
export const BARE_RESOLUTION = /^\d{3,4}$/;

/**
 * A mark: neither a letter, a digit, a combining mark nor a space, and not a character a name is
 * written with (`+`, `&`, apostrophes). Brackets are marks too.
 */
export const MARK = /[^\p{L}\p{N}\p{M}\s&+'’]/u;

/** Small capitals (`ʜᴅ`, `ꜰʜᴅ`), which NFKC leaves as they are, and the capitals they stand for. */
const SMALL_CAPITALS: Readonly<Record<string, string>> = Object.fromEntries(
  [...'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ'].map((ch, i) => [ch, 'ABCDEFGHIJKLMNOPQRSTUVWYZ'[i]!]),
);
const SMALL_CAPITAL = /[ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ]/gu;

/** Small capitals as the capitals they stand for. */
export function smallCapitals(text: string): string {
  return text.replace(SMALL_CAPITAL, (ch) => SMALL_CAPITALS[ch] ?? ch);
}

/**
 * Characters that may be letters in a style of their own: small capitals, modifier letters,
 * super- and subscripts, enclosed, full-width and mathematical letters, presentation forms. A
 * quick test: most names hold none, and are not looked at letter by letter.
 */
const STYLED =
  /[\u00aa\u00b2\u00b3\u00b9\u00ba\u0280-\u02ff\u1d00-\u1dbf\u2070-\u209f\u2460-\u24ff\u3200-\u33ff\ua700-\ua7ff\ufb00-\ufb4f\ufe70-\ufeff\uff00-\uffef]|[\u{1d400}-\u{1d7ff}\u{1f100}-\u{1f1ff}]/u;

type Style = 'plain' | 'small' | 'super' | 'compat' | 'none';

/** The style of character `ch`: `none` for what is not a letter (plain digits included). */
function styleOf(ch: string): Style {
  if (SMALL_CAPITALS[ch] !== undefined) return 'small';
  const letter = /\p{L}/u.test(ch);
  // Roman numerals (`Ⅰ`) are numbers of the name, whatever their form.
  if (!letter && !/[\p{Nd}\p{No}]/u.test(ch)) return 'none';
  const folded = ch.normalize('NFKC');
  if (folded !== ch && /^[\p{L}\p{N}]+$/u.test(folded)) {
    return /\p{Lm}/u.test(ch) || /[\u00b2\u00b3\u00b9\u2070-\u209f]/.test(ch) ? 'super' : 'compat';
  }
  return letter ? 'plain' : 'none';
}

/**
 * What a tag set aside leaves (one set apart by its style, a phrase such as `H.265`): a mark (a
 * character of the private use area, which no name holds), so that a word after it still stands
 * where tags do (edges.ts).
 */
export const TAG_MARK = ' \ue000 ';

/**
 * The name without the runs of letters written in another style than most of its letters: a
 * tag set apart by its style (`BBC One ᴴᴰ`, `CBC ᴿᵀᴷ`, `ʙʙᴄ ᴏɴᴇ NFT`). A name written wholly in
 * one style (`ʙʙᴄ ᴏɴᴇ`, `ＢＢＣ`) keeps all of it. Runs end at a space, a mark or a change of
 * style; plain digits go with the run they stand in.
 */
export function withoutStyledTags(text: string, styled?: string[]): string {
  if (!STYLED.test(text)) return text;
  const chars = [...text];
  const styles = chars.map(styleOf);
  // Runs of letters of one style (plain digits go with the run they stand in: `ᴀʙ1`, `¹⁰⁸⁰ᵖ`),
  // and what stands between them.
  const runs: { start: number; end: number; style: Style }[] = [];
  const digit = (i: number) => styles[i] === 'none' && /\p{N}/u.test(chars[i]!);
  for (let i = 0; i < chars.length; i++) {
    const s = styles[i]!;
    const last = runs[runs.length - 1];
    if (s === 'none') {
      if (last !== undefined && last.end === i && digit(i)) last.end = i + 1;
      continue;
    }
    if (last !== undefined && last.end === i && last.style === s) last.end = i + 1;
    else {
      // Digits just before it are its own (`4k`), unless a run already took them.
      let start = i;
      while (start > 0 && digit(start - 1) && (last === undefined || last.end < start)) start--;
      runs.push({ start, end: i + 1, style: s });
    }
  }
  // The name's style: the one most of its letters are written in, tags and codes not counted
  // (`ᴀᴄɪ ꜱᴘᴏʀᴛ ᴛᴠ HEVC AICT` is a name in small capitals); of two as many, its first word's.
  const counts: Record<Style, number> = { plain: 0, small: 0, super: 0, compat: 0, none: 0 };
  const word = (r: { start: number; end: number }) =>
    smallCapitals(chars.slice(r.start, r.end).join('').normalize('NFKC'));
  let first: Style | undefined;
  for (const r of runs) {
    const w = word(r);
    if (isTag(w) || isCountry(w)) continue;
    counts[r.style] += r.end - r.start;
    first ??= r.style;
  }
  let main: Style = first ?? 'plain';
  for (const s of ['plain', 'small', 'super', 'compat'] as const) if (counts[s] > counts[main]) main = s;
  const glued = (i: number) => i >= 0 && i < chars.length && /[\p{L}\p{N}]/u.test(chars[i]!);
  let out = '';
  let at = 0;
  for (const r of runs) {
    if (r.style === main) continue;
    const w = word(r);
    const apart = !(glued(r.start - 1) || glued(r.end));
    // Superscripts and small capitals are tags even glued to a word (`HBOᴴᴰ`); other styles
    // only set apart (`Proﬁle` keeps its ligature, `2х2` its letter), and plain letters only two
    // or more (a name in small capitals writes its `X` plainly: `9X ᴊᴀʟᴡᴀ`).
    if (r.style === 'plain' ? !apart || /^\P{L}*\p{L}\P{L}*$/u.test(w) : r.style === 'compat' && !apart) continue;
    // A tag set apart is read as one wherever it stands, and a code written plainly in a name of
    // another style (`(BR) ᴛᴠ ᴀᴘᴀʀᴇᴄɪᴅᴀ`) is read as a code (edges.ts).
    if (apart && (isTag(w) || (r.style === 'plain' && isCountry(w)))) continue;
    out += chars.slice(at, r.start).join('') + TAG_MARK;
    styled?.push(chars.slice(r.start, r.end).join(''));
    at = r.end;
  }
  return at === 0 ? text : out + chars.slice(at).join('');
}

/** Two regional indicators (a flag, `🇨🇦`) as the country code they spell, in brackets: `[CA]`. */
export function flagsAsCodes(text: string): string {
  if (!/[\u{1f1e6}-\u{1f1ff}]/u.test(text)) return text;
  return text.replace(/([\u{1f1e6}-\u{1f1ff}])([\u{1f1e6}-\u{1f1ff}])/gu, (_all, a: string, b: string) => {
    const letter = (ch: string) => String.fromCharCode(65 + ch.codePointAt(0)! - 0x1f1e6);
    return ` [${letter(a)}${letter(b)}] `;
  });
}
