/**
 * A name prepared for comparison: its tokens, what kind of word each is (a number or `+`, a weak
 * word, a code, a name word; a place or language), its marks (numbers and `+`, which must agree),
 * its time shift, its key (the tokens joined: the exact `normalizedName` rule) and its base key
 * (without the place and language words). Kept compact: a guide of 20,000 channels holds some
 * 30,000 of them for the whole import, and an array per token property was most of the memory
 * the import kept (and so of the garbage V8 let pile up before collecting).
 */
import { type CallSign, sharedCallSign } from './call-sign.js';
import { type NameReading, type ReadOptions, readName } from './read-name.js';
import { CHANNEL_WORDS, COUNTRY2, FEED_WORDS, LANGUAGE2, TIME_FEED_WORDS, TV_WORDS, WEAK_WORDS } from './vocabulary.js';

export interface NameForm {
  readonly tokens: readonly string[];
  /**
   * One letter per token: `m` a number or `+`, `w` a weak word (`TV`, `the`), `c` a country or
   * language code after the name, `n` any other word; upper case (`W`, `C`, `N`) when it is a
   * place, region, language or feed word, or stood in brackets (`B` for another word in brackets);
   * `T` a time-zone feed word (`East`, `Pacific`), which a guide name may add without naming another
   * channel.
   */
  readonly kinds: string;
  /** The sum of the tokens' weights. */
  readonly total: number;
  /** Numbers and `+` signs, sorted and joined: two names whose marks differ are different channels. */
  readonly marks: string;
  /** The last token is a number (`Sky News Extra 2`): it numbers the channel among its siblings. */
  readonly trailingNumber: boolean;
  readonly shift: number;
  /** The tokens joined, with the shift: equal keys are the `normalizedName` rule. */
  readonly key: string;
  /** The key without its feed tokens, when it has some and other words (`bbc1` of `BBC One Scotland`). */
  readonly baseKey?: string;
  /** The country or language a prefix or bracket named (a hint that breaks ties). */
  readonly country?: string;
  /** A North American station's call sign, where the name writes one as such (call-sign.ts). */
  readonly call?: CallSign;
}

/** Weight of a word that says "a channel" (`TV`, `Kanal`) or a small function word. */
export const WEAK = 0.25;
/** Weight of a country or language code standing after the name (`Arena Sport 7 HR`). */
export const CODE = 0.3;

const WEIGHT: Readonly<Record<string, number>> = { m: 1, w: WEAK, c: CODE, n: 1, W: WEAK, C: CODE, N: 1, B: 1, T: 1 };

/** The weight of token `i` of `form`. */
export function weightAt(form: NameForm, i: number): number {
  return WEIGHT[form.kinds[i]!]!;
}

/** Is token `i` of `form` a place, region, language or feed word (or in brackets)? */
export function feedAt(form: NameForm, i: number): boolean {
  const k = form.kinds[i]!;
  return k === 'W' || k === 'C' || k === 'N' || k === 'B' || k === 'T';
}

/** Did token `i` of `form` stand in brackets (`Россия 24 (Астрахань)`), as a word that says something? */
export function bracketedAt(form: NameForm, i: number): boolean {
  return form.kinds[i] === 'B';
}

/** Is token `i` of `form` a time-zone feed word (`East`, `Pacific`)? */
export function timeFeedAt(form: NameForm, i: number): boolean {
  return form.kinds[i] === 'T';
}

/** Is token `i` a number or `+`? */
export function markAt(form: NameForm, i: number): boolean {
  return form.kinds[i] === 'm';
}

/**
 * Distinct strings a TokenPool shares at most. The words names share are met early; past this,
 * a new string is mostly a token one name has (a channel's own number in `Channel 123456`), which
 * sharing saves nothing on and which cost the pool an entry each: 300,000 numbered names made
 * its table 15 MB, held at the moment an import of them peaked (issue 48).
 */
const POOLED = 60_000;

/**
 * Shares equal strings between the forms of one index: `tv` or `news` stand in thousands of
 * names, and a string each was a good part of what an index kept.
 */
export class TokenPool {
  readonly #seen = new Map<string, string>();

  intern(text: string): string {
    const known = this.#seen.get(text);
    if (known !== undefined) return known;
    if (this.#seen.size < POOLED) this.#seen.set(text, text);
    return text;
  }
}

/**
 * The form of a name; its tokens shared through `pool` when given.
 * @example formOf('UK: BBC One HD').key // 'bbc1'
 */
export function formOf(name: string, pool?: TokenPool, options?: ReadOptions): NameForm {
  return formOfReading(readName(name, options), pool);
}

/**
 * The forms of one guide channel's display names, read together: a station's call sign one of
 * them writes is the others' too (call-sign.ts).
 * @example formsOfChannel(['WFUT True Crime Network', 'True Crime (WFUT-DT2)'])[0].call // { letters: 'wfut', id: 'wfut/2' }
 */
export function formsOfChannel(names: readonly string[]): NameForm[] {
  return sharedCallSign(names.map((n) => formOf(n)));
}

export function formOfReading(r: NameReading, pool?: TokenPool): NameForm {
  const tokens = pool === undefined ? r.tokens : r.tokens.map((t) => pool.intern(t));
  let kinds = '';
  let allWeak = true;
  // Words other than time-zone feed words that say something: only beside one is `East` a feed.
  let saying = 0;
  for (let i = 0; i < tokens.length; i++) {
    const kind = kindOf(tokens[i]!, i);
    if (kind === 'n' || kind === 'm') allWeak = false;
    if ((kind === 'n' && !TIME_FEED_WORDS.has(tokens[i]!)) || kind === 'm') saying++;
    kinds += kind;
  }
  // A name of weak words only (`TV`, `E!`) is weighed as it is: its words are all it has.
  if (allWeak) kinds = 'n'.repeat(tokens.length);
  let feedKinds = '';
  let base = '';
  let named = false;
  const marks: string[] = [];
  let total = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let kind = kinds[i]!;
    if (kind === 'm') {
      // The token itself when it is written as its number is (`24`, not `024`): no string more per name.
      const mark = t === '+' ? t : String(Number(t));
      marks.push(mark === t ? t : mark);
    } else if (kind === 'n' && saying > 0 && TIME_FEED_WORDS.has(t)) kind = 'T';
    else if (kind === 'n' && r.bracketed[i] === true) kind = 'B';
    else if (r.bracketed[i] === true || FEED_WORDS.has(t) || kind === 'c') kind = kind.toUpperCase();
    feedKinds += kind;
    total += WEIGHT[kind]!;
    if (kind === 'm' || kind === 'n' || kind === 'w' || kind === 'c') base += t;
    if (kind === 'n') named = true;
  }
  const key = keyOf(tokens, r.shift);
  const baseKey = r.shift === 0 ? base : `${base}+${r.shift}h`;
  return {
    tokens,
    kinds: pool === undefined ? feedKinds : pool.intern(feedKinds),
    total,
    marks: marks.length === 0 ? '' : marks.length === 1 ? marks[0]! : marks.sort().join(' '),
    trailingNumber: tokens.length > 0 && /^\p{N}+$/u.test(tokens[tokens.length - 1]!),
    shift: r.shift,
    key,
    ...(named && baseKey !== key ? { baseKey } : {}),
    ...(r.country !== undefined ? { country: r.country } : {}),
    ...(r.call !== undefined ? { call: r.call } : {}),
  };
}

/** The exact key of a name: its tokens joined, and its shift. */
export function keyOf(tokens: readonly string[], shift: number): string {
  const joined = tokens.join('');
  return shift === 0 ? joined : `${joined}+${shift}h`;
}

/** Numbers and `+`: they must agree between two names of one channel. */
export function isMark(token: string): boolean {
  return token === '+' || /^\p{N}+$/u.test(token);
}

/**
 * A token spelled loosely: the letters transliterations and spellings disagree on made one
 * (`j`/`y`/`i`, `c`/`k`/`q`, `w`/`v`, `ph`/`f`, `kh`/`h`, `ts`/`c`), doubled letters single, an
 * `i` (or `j`, `y`) before a vowel dropped (`ya`, `yu`, `ye`, `ja`, `ia` are one sound written
 * many ways: `Kinopremyera` / `Кинопремьера`, `Kluch` / `Ключ`); '' for numbers and words under
 * 4 letters, which are never compared loosely.
 * @example loose('kinokomedija') === loose('kinokomediya') // true
 * @example loose('solnce') === loose('solntse') // true
 */
export function loose(token: string): string {
  let l = LOOSE.get(token);
  if (l === undefined) {
    if (LOOSE.size >= LOOSE_CACHE) LOOSE.clear();
    l = spellLoosely(token);
    LOOSE.set(token, l);
  }
  return l;
}

/**
 * Loose spellings already computed: a token is spelled loosely each time an index is built or
 * probed and each time a pair is scored, and eight regular expressions per token were most of
 * the scored stage's time. Cleared when it grows past LOOSE_CACHE.
 */
const LOOSE = new Map<string, string>();
const LOOSE_CACHE = 20_000;

function spellLoosely(token: string): string {
  if (CHANNEL_WORDS.has(token)) return 'channel';
  if (TV_WORDS.has(token)) return 'television';
  if (token.length < 4 || isMark(token)) return '';
  return token
    .replace(/ph/g, 'f')
    .replace(/kh/g, 'h')
    .replace(/t[sz]/g, 'c')
    .replace(/[jy]/g, 'i')
    .replace(/[cq]/g, 'k')
    .replace(/w/g, 'v')
    .replace(/x/g, 'ks')
    .replace(/(.)\1+/g, '$1')
    .replace(/(?<=.)i(?=[aeiou])/g, '');
}

function kindOf(token: string, index: number): string {
  if (isMark(token)) return 'm';
  if (WEAK_WORDS.has(token)) return 'w';
  if (index > 0 && token.length === 2 && (COUNTRY2.has(token) || LANGUAGE2.has(token))) return 'c';
  return 'n';
}
