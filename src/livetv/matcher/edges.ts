/**
 * The edges of a name: the runs of marks, codes and tags a panel writes before and after it.
 * `◉ CA CBC News Network FHD`, `CA ★ CBC News Network`, `⟦CA⟧ CBC News Network` and `CBC News
 * Network ▹ ca` all leave `CBC News Network` and the hint `ca`.
 *
 * Read by shape: in the leading run, a country's, language's or region's code (or a tag) is a
 * prefix wherever it stands among marks: with a mark after it (`UK: `, `CA ◉ `, `CA◉`), or with
 * a mark before it when what follows still names something (`◉ CA CBC`, while `★ La 1` keeps its
 * `La`); a code with no mark beside it is a word of the name (`UK Gold`). At the end, a code
 * after a mark (`… ▹ ca`, `… | UK`) is a hint. What a playlist was found to write around its
 * names (decoration.ts) is set aside as well, marks or not: the words it repeats before or after
 * many names that the guides' names rarely hold, and a bare number shaped like a resolution
 * where its names end with one (`TRT HABER 1080`).
 */
import { BARE_RESOLUTION, isCode, isCountry, isTag, MARK, namesSomething } from './shapes.js';
import { COUNTRY2, COUNTRY3, REGIONS, WEAK_WORDS } from './vocabulary.js';

/** What a playlist was found to write around its names, beyond what the shapes say. */
export interface Learned {
  /** Words (folded) it writes before its names: a prefix wherever they stand in the leading run. */
  readonly lead: ReadonlySet<string>;
  /** Words (folded) it writes after its names: tags. */
  readonly trail: ReadonlySet<string>;
  /** Its names end with a bare number shaped like a resolution as a tag (`… 1080`). */
  readonly numbers: boolean;
  /** Its names start with a number set apart by a mark: its own numbering (`101 | CBC News`). */
  readonly numbered?: boolean;
  /** A bare number the guides' names hold as a word (`TV 1000`) stays: false to keep it. */
  readonly dropsNumber?: (n: string) => boolean;
}

/**
 * A word (letters, digits, `&`, `+`, and apostrophes and hyphens inside it: `EX-YU`, `AL-JAZEERA`,
 * `d'Azur`) or a run of marks (an apostrophe or a hyphen at a word's edge is one: `'HR⭂`).
 */
export interface Piece {
  readonly word?: string;
  readonly mark?: string;
  readonly start: number;
  readonly end: number;
  /** Space stood before it. */
  readonly spaced: boolean;
}

const PIECE = /(\s*)(?:([\p{L}\p{N}\p{M}&+]+(?:['’-][\p{L}\p{N}\p{M}&+]+)*)|([^\p{L}\p{N}\p{M}\s&+'’-]+|['’-]))/uy;

/** The pieces of `text`, at most `max`. */
export function piecesOf(text: string, max: number): Piece[] {
  const out: Piece[] = [];
  PIECE.lastIndex = 0;
  while (out.length < max) {
    const at = PIECE.lastIndex;
    const m = PIECE.exec(text);
    if (!m) break;
    const start = at + m[1]!.length;
    const end = PIECE.lastIndex;
    out.push(
      m[2] !== undefined
        ? { word: m[2], start, end, spaced: m[1] !== '' }
        : { mark: m[3]!, start, end, spaced: m[1] !== '' },
    );
  }
  return out;
}

/** Does a run of marks set words apart? Not punctuation that ends a word or a clause (`!`, `?`, `.`, `,`, `;`). */
export function separates(mark: string): boolean {
  return !/^[!?.,;]+$/.test(mark);
}

const OPENS = /^\p{Ps}/u;
/** Marks that join two words when glued to both (`24/7`, `H_264`). */
const JOINS = /^[/_]$/;

/** A country's or region's code, not only a language's (`ny`, `yo` are languages only). */
function isCountryOnly(code: string): boolean {
  return COUNTRY2.has(code) || COUNTRY3.has(code) || REGIONS.has(code);
}

/** Characters looked at for a mark before reading a leading run piece by piece (codes are at most 6 letters). */
const QUICK_LOOK = 12;

/** Pieces read from the start for the leading run: a prefix is never longer. */
const LEAD_PIECES = 14;
/** Codes a leading run may hold (`|UK| VIP: ★ EN ★ …`). */
const LEAD_CODES = 4;

/** `w` folded as a name's words are (lower case, no accents). */
export type Fold = (w: string) => string;

/**
 * The leading run of `text` (in its own case) set aside: the rest of the name, the country the
 * run names (lower case, `ex-yu` as `exyu`), and the run as written.
 */
export function leadingRun(
  text: string,
  fold: Fold,
  learned?: Learned,
): { text: string; country?: string; run: string } {
  // Most names start with a word and hold no mark near their start: nothing to set aside.
  if (learned === undefined && !MARK.test(text.slice(0, QUICK_LOOK))) return { text, run: '' };
  const numbering = learned?.numbered ? numberedPrefix(text) : 0;
  if (numbering > 0) {
    const rest = leadingRun(text.slice(numbering), fold, { ...learned!, numbered: false });
    return { ...rest, run: `${text.slice(0, numbering).trim()} ${rest.run}`.trim() };
  }
  const pieces = piecesOf(text, LEAD_PIECES);
  let cut = 0;
  let country: string | undefined;
  let codes = 0;
  for (let k = 0; k < pieces.length && codes < LEAD_CODES; k++) {
    const p = pieces[k]!;
    if (p.word === undefined) continue;
    const w = p.word;
    const known = learned?.lead.has(fold(w)) === true;
    if (!known && !isCode(w) && !isTag(w)) break;
    const next = pieces[k + 1];
    const before = k > 0 && pieces[k - 1]!.mark !== undefined;
    // A mark after it, spaced or glued to the name (`UK: `, `CA ◉ `, `UK|BBC`, `US ▎ESPN`); not
    // punctuation that ends a word (`Yo! MTV`, `U.S.`) nor a bracket that opens (`TN (1080p)`).
    const after =
      next?.mark !== undefined &&
      separates(next.mark) &&
      !OPENS.test(next.mark) &&
      !(JOINS.test(next.mark) && !next.spaced && pieces[k + 2]?.spaced === false);
    if (!known && !before && !after) break;
    let j = k + 1;
    while (pieces[j]?.mark !== undefined) j++;
    const rest = pieces[j];
    if (rest === undefined) break;
    // After the marks the name starts with only (`◉ CA CBC News`; in `AE ● Al Arabiya` the mark
    // is AE's): a prefix when the rest still names something.
    if (
      !known &&
      !after &&
      (codes > 0 ||
        !text
          .slice(rest.start)
          .split(/[^\p{L}\p{N}]+/u)
          .some(namesSomething))
    )
      break;
    if (isCountry(w) && !isTag(w)) country ??= w.toLowerCase().replace(/-/g, '');
    cut = rest.start;
    codes++;
    k = j - 1;
  }
  return cut === 0
    ? { text, run: '' }
    : { text: text.slice(cut), run: text.slice(0, cut).trim(), ...(country !== undefined ? { country } : {}) };
}

/**
 * The length of a number a name starts with, set apart by a mark (`101 | `, `7. `, `012 ⊹ `),
 * when what follows names something; 0 for none.
 */
export function numberedPrefix(text: string): number {
  const pieces = piecesOf(text, 3);
  const [number, mark, next] = pieces;
  if (number?.word === undefined || !/^\d{1,5}$/.test(number.word) || mark?.mark === undefined || next === undefined)
    return 0;
  if (!(separates(mark.mark) || mark.mark === '.') || OPENS.test(mark.mark)) return 0;
  return text
    .slice(next.start)
    .split(/[^\p{L}\p{N}]+/u)
    .some(namesSomething)
    ? next.start
    : 0;
}

/** Pieces read for the trailing run, at most (a name is at most MAX_NAME characters). */
const TRAIL_PIECES = 200;

/**
 * The trailing run of `text` (folded) set aside where it holds a code after a mark, a learned
 * word or a bare resolution: the rest, the country, and the words set aside (tags after them go
 * too; tags elsewhere are read later).
 */
export function trailingRun(
  text: string,
  learned?: Learned,
): { text: string; country?: string; removed: readonly string[] } {
  // Without learned words, only a code after a mark is set aside: most names hold no mark.
  if (learned === undefined && !MARK.test(text)) return { text, removed: [] };
  const pieces = piecesOf(text, TRAIL_PIECES);
  let cut = text.length;
  let country: string | undefined;
  let number = false;
  const removed: string[] = [];
  for (let k = pieces.length - 1; k > 0; k--) {
    const p = pieces[k]!;
    if (p.word === undefined) continue;
    const w = p.word;
    if (isTag(w)) continue;
    const before = pieces[k - 1]!;
    if (learned?.trail.has(w)) {
      cut = p.start;
    } else if (
      learned?.numbers &&
      !number &&
      BARE_RESOLUTION.test(w) &&
      (learned.dropsNumber === undefined || learned.dropsNumber(w))
    ) {
      number = true;
      cut = p.start;
    } else if (
      before.mark !== undefined &&
      separates(before.mark) &&
      // `TN/VA`, `LCP/PS`: a mark glued on both sides joins two words.
      (before.spaced || p.spaced || OPENS.test(before.mark)) &&
      isCountryOnly(w) &&
      !WEAK_WORDS.has(w)
    ) {
      country ??= w.replace(/-/g, '');
      cut = before.start;
    } else break;
    removed.push(w);
  }
  if (cut === text.length) return { text, removed };
  // Something must stay: a name that is all decoration is read as it is.
  if (!piecesOf(text.slice(0, cut), 40).some((p) => p.word !== undefined && !isTag(p.word)))
    return { text, removed: [] };
  return { text: text.slice(0, cut), removed, ...(country !== undefined ? { country } : {}) };
}

/**
 * What the learning pass (decoration.ts) needs of a name's edges, filled by `readName` when
 * asked: read with the name, not again.
 */
export interface NameEdges {
  /** The leading run as written (`◉ CA`), '' for none. */
  run: string;
  /** The country the run names. */
  country?: string;
  /** The first word of the name once the run is set aside (folded), when it may be a prefix of the playlist's: a code, or a word a mark sets apart from the rest. */
  lead?: string;
  /** The last word before the tags at the end (folded), when it may be a tag of the playlist's; `#` for a bare number shaped like a resolution. */
  trail?: string;
  /** That word stands where tags do: after a tag, or set apart by a mark. */
  trailApart?: boolean;
  /** A bare number shaped like a resolution ends the name, before its tags or that word. */
  number?: boolean;
  /** The name starts with a number set apart by a mark (`101 | …`): run and lead are read after it. */
  numbered?: boolean;
  /** Tags set aside at its edges (digits as `#`), and codes after a mark at the end. */
  readonly tags: string[];
}

/** The first word of `text` (the name once its leading run is set aside), when it may be a learned prefix. */
export function leadCandidate(text: string, fold: Fold): string | undefined {
  const first = piecesOf(text, 3);
  const w = first[0]?.word;
  const next = first[1];
  if (w === undefined || next === undefined) return undefined;
  const apart = next.mark !== undefined && separates(next.mark);
  if (!(isCode(w) || apart)) return undefined;
  return text
    .slice(next.start)
    .split(/[^\p{L}\p{N}]+/u)
    .some(namesSomething)
    ? fold(w)
    : undefined;
}

/**
 * The last word of `text` (folded, its trailing run set aside) before the tags at its end, when
 * the name has another word and it has letters; whether it stands where tags do (after a tag,
 * `… 1080p NFT`, or set apart by a mark, `… | NFT`, `… [NFT]`); and whether a bare number shaped
 * like a resolution ends the name before its tags, or before that word (`… 1080 NFT`). The tags
 * passed on the way go to `tags`.
 */
export function trailCandidate(text: string, tags: string[]): { word?: string; apart: boolean; number: boolean } {
  const pieces = piecesOf(text, TRAIL_PIECES);
  let words = 0;
  for (const p of pieces) if (p.word !== undefined) words++;
  let word: string | undefined;
  let apart = false;
  for (let k = pieces.length - 1; k >= 0 && words > 1; k--) {
    const w = pieces[k]!.word;
    if (w === undefined) continue;
    words--;
    if (isTag(w)) {
      tags.push(w.replace(/\d/g, '#'));
      continue;
    }
    if (BARE_RESOLUTION.test(w)) return { ...(word !== undefined ? { word } : {}), apart, number: true };
    if (word !== undefined || !/\p{L}/u.test(w)) break;
    word = w;
    let j = k - 1;
    for (; j >= 0 && pieces[j]!.mark !== undefined; j--) if (separates(pieces[j]!.mark!)) apart = true;
    if (j >= 0 && isTag(pieces[j]!.word!)) apart = true;
  }
  return { ...(word !== undefined ? { word } : {}), apart, number: false };
}
