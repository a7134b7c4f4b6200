/**
 * A name prepared for comparison: its tokens with their weights, the marks that must agree
 * (numbers and `+`), its time shift, its key (the tokens joined: the exact `normalizedName` rule)
 * and which of its tokens only say where or in which language it is shown.
 */
import { type NameReading, readName } from './read-name.js';
import { COUNTRY2, FEED_WORDS, LANGUAGE2, WEAK_WORDS } from './vocabulary.js';

export interface NameForm {
  readonly tokens: readonly string[];
  readonly weights: readonly number[];
  readonly total: number;
  /** Per token: a place, region, language or feed word, or a word in brackets. */
  readonly feed: readonly boolean[];
  /** Per token: its loose spelling (`loose()`), or '' for numbers, `+` and tokens under 4 letters. */
  readonly loose: readonly string[];
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
}

/** Weight of a word that says "a channel" (`TV`, `Kanal`) or a small function word. */
export const WEAK = 0.25;
/** Weight of a country or language code standing after the name (`Arena Sport 7 HR`). */
export const CODE = 0.3;

/**
 * The form of a name.
 * @example formOf('UK: BBC One HD').key // 'bbc1'
 */
export function formOf(name: string): NameForm {
  return formOfReading(readName(name));
}

export function formOfReading(r: NameReading): NameForm {
  const tokens = r.tokens;
  const weighed = tokens.map((t, i) => weightOf(t, i));
  // A name of weak words only (`TV 3`, `E!`) is weighed as it is: its words are all it has.
  const weights = weighed.every((w) => w < 1) ? tokens.map(() => 1) : weighed;
  const feed = tokens.map(
    (t, i) => !isMark(t) && (r.bracketed[i] === true || FEED_WORDS.has(t) || (i > 0 && weights[i] === CODE)),
  );
  const marks = tokens
    .filter(isMark)
    .map((t) => (t === '+' ? t : String(Number(t))))
    .sort()
    .join(' ');
  const base = tokens.filter((_t, i) => !feed[i]);
  const named = tokens.some((t, i) => !feed[i] && !isMark(t) && weights[i]! >= 1);
  return {
    tokens,
    weights,
    total: weights.reduce((a, b) => a + b, 0),
    feed,
    loose: tokens.map((t) => (isMark(t) || t.length < 4 ? '' : loose(t))),
    marks,
    trailingNumber: tokens.length > 0 && /^\p{N}+$/u.test(tokens[tokens.length - 1]!),
    shift: r.shift,
    key: keyOf(tokens, r.shift),
    ...(named && base.length < tokens.length ? { baseKey: keyOf(base, r.shift) } : {}),
    ...(r.country !== undefined ? { country: r.country } : {}),
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
 * (`j`/`y`/`i`, `c`/`k`/`q`, `w`/`v`, `ph`/`f`, `kh`/`h`), doubled letters single.
 * @example loose('kinokomedija') === loose('kinokomediya') // true
 */
export function loose(token: string): string {
  return token
    .replace(/ph/g, 'f')
    .replace(/kh/g, 'h')
    .replace(/[jy]/g, 'i')
    .replace(/[cq]/g, 'k')
    .replace(/w/g, 'v')
    .replace(/x/g, 'ks')
    .replace(/(.)\1+/g, '$1');
}

function weightOf(token: string, index: number): number {
  if (isMark(token)) return 1;
  if (WEAK_WORDS.has(token)) return WEAK;
  if (index > 0 && token.length === 2 && (COUNTRY2.has(token) || LANGUAGE2.has(token))) return CODE;
  return 1;
}
