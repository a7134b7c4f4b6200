/**
 * Our own XMLTV tokenizer: htmlparser2 10.1.0's `Tokenizer` in XML mode with entity decoding off,
 * state for state, written as one loop over local variables. htmlparser2's version calls a method
 * per character through a `switch` on `this.state` and keeps `index`, `sectionStart` and the state
 * in object fields; here they live in registers for the whole chunk, runs of characters that do
 * nothing (text, attribute values, names, comments) are crossed with native `indexOf` or one
 * tight loop, and the states HTML needs (special tags, entities) are not there at all.
 *
 * Same callbacks, same arguments, same order as htmlparser2's tokenizer for any input cut into any
 * chunks, including its recovery from broken markup (`xml-tokenizer.test.ts` holds it equal to the
 * plain tokenizer over fixtures, real guides and generated documents split at random). The reader
 * uses it by default; `tokenizer: 'htmlparser2'` (or MARQUEE_XMLTV_TOKENIZER=htmlparser2) runs
 * htmlparser2's instead. Like htmlparser2's, it never reads a DTD and expands no entity.
 */
import type { TokenizerCallbacks } from 'htmlparser2';

/** The callbacks this tokenizer calls (the entity callbacks of htmlparser2 never fire without decoding). */
export type XmlTokenCallbacks = Pick<
  TokenizerCallbacks,
  | 'onattribdata'
  | 'onattribend'
  | 'onattribname'
  | 'oncdata'
  | 'onclosetag'
  | 'oncomment'
  | 'ondeclaration'
  | 'onend'
  | 'onopentagend'
  | 'onopentagname'
  | 'onprocessinginstruction'
  | 'onselfclosingtag'
  | 'ontext'
> & {
  /**
   * Ours only, optional: called at a `<` between tokens (text state) with the piece of text at hand,
   * the `<`'s index in it and the piece's absolute offset. A handler that reads the element starting
   * there itself returns the index just past it, and the tokenizer goes on from there in text state,
   * as after the element's own events; -1 lets the tokenizer read it.
   */
  onelement?(buffer: string, i: number, offset: number): number;
};

// htmlparser2's states, those XML mode without decoding reaches.
const TEXT = 1;
const BEFORE_TAG_NAME = 2;
const IN_TAG_NAME = 3;
const IN_SELF_CLOSING_TAG = 4;
const BEFORE_CLOSING_TAG_NAME = 5;
const IN_CLOSING_TAG_NAME = 6;
const AFTER_CLOSING_TAG_NAME = 7;
const BEFORE_ATTRIBUTE_NAME = 8;
const IN_ATTRIBUTE_NAME = 9;
const AFTER_ATTRIBUTE_NAME = 10;
const BEFORE_ATTRIBUTE_VALUE = 11;
const IN_ATTRIBUTE_VALUE_DQ = 12;
const IN_ATTRIBUTE_VALUE_SQ = 13;
const IN_ATTRIBUTE_VALUE_NQ = 14;
const BEFORE_DECLARATION = 15;
const IN_DECLARATION = 16;
const IN_PROCESSING_INSTRUCTION = 17;
const BEFORE_COMMENT = 18;
const CDATA_SEQUENCE = 19;
const IN_SPECIAL_COMMENT = 20;
const IN_COMMENT_LIKE = 21;

// htmlparser2's QuoteType.
const QUOTE_NONE = 0;
const QUOTE_UNQUOTED = 1;
const QUOTE_SINGLE = 2;
const QUOTE_DOUBLE = 3;

// Character codes (some exported for plain-programme.ts, which reads the same markup).
const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
export const BANG = 0x21;
export const DQ = 0x22;
export const SQ = 0x27;
const DASH = 0x2d;
export const SLASH = 0x2f;
const LT = 0x3c;
export const EQ = 0x3d;
export const GT = 0x3e;
export const QUESTION = 0x3f;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** `CDATA[` after `<![`. */
const CDATA = [0x43, 0x44, 0x41, 0x54, 0x41, 0x5b];

/** htmlparser2's whitespace: space, \n, \t, \f, \r. */
export function isWhitespace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF || c === CR;
}
/** What ends a tag or attribute name for htmlparser2: `/`, `>` or whitespace. */
export function isEndOfTagSection(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}

/**
 * Chunks of text in, token callbacks out, with absolute character offsets (see the file comment).
 *
 * @example new XmlTokenizer(callbacks).write('<tv></tv>')
 */
export class XmlTokenizer {
  private state = TEXT;
  private buffer = '';
  /** Absolute offset of the first character of `buffer`. */
  private offset = 0;
  /** Absolute offset of the next character to read. */
  private index = 0;
  /** Absolute start of the section being read, or -1. */
  private sectionStart = 0;
  private sequenceIndex = 0;
  /** In a CDATA section (`]]>` ends it) rather than a comment (`-->`). */
  private inCdata = false;

  /** Does the handler read some elements itself (`onelement`)? */
  private readonly elements: boolean;

  constructor(private readonly cbs: XmlTokenCallbacks) {
    this.elements = typeof cbs.onelement === 'function';
  }

  write(chunk: string): void {
    this.offset += this.buffer.length;
    this.buffer = chunk;
    this.parse();
  }

  end(): void {
    const cbs = this.cbs;
    const endIndex = this.buffer.length + this.offset;
    const start = this.sectionStart;
    if (start < endIndex) {
      const state = this.state;
      if (state === IN_COMMENT_LIKE) {
        if (this.inCdata) cbs.oncdata(start, endIndex, 0);
        else cbs.oncomment(start, endIndex, 0);
      } else if (
        state !== IN_TAG_NAME &&
        state !== BEFORE_ATTRIBUTE_NAME &&
        state !== BEFORE_ATTRIBUTE_VALUE &&
        state !== AFTER_ATTRIBUTE_NAME &&
        state !== IN_ATTRIBUTE_NAME &&
        state !== IN_ATTRIBUTE_VALUE_SQ &&
        state !== IN_ATTRIBUTE_VALUE_DQ &&
        state !== IN_ATTRIBUTE_VALUE_NQ &&
        state !== IN_CLOSING_TAG_NAME
      ) {
        // An unfinished opening or closing tag is dropped; anything else ends as text.
        cbs.ontext(start, endIndex);
      }
    }
    cbs.onend();
  }

  /**
   * htmlparser2's `parse`: each case is its `state...` method for the character at `i`; "reconsume"
   * (a method calling another state's method with the same character) is `continue` without moving
   * on, and a `fastForwardTo` that finds nothing leaves `i` on the last character, as there.
   */
  private parse(): void {
    const cbs = this.cbs;
    const buffer = this.buffer;
    const n = buffer.length;
    const offset = this.offset;
    let i = this.index - offset;
    let state = this.state;
    let start = this.sectionStart;
    let sequence = this.sequenceIndex;
    let inCdata = this.inCdata;
    const elements = this.elements;

    while (i < n) {
      const c = buffer.charCodeAt(i);
      switch (state) {
        case TEXT: {
          const lt = c === LT ? i : buffer.indexOf('<', i + 1);
          if (lt < 0) {
            i = n - 1;
            break;
          }
          i = lt;
          if (i + offset > start) cbs.ontext(start, i + offset);
          if (elements) {
            const end = cbs.onelement!(buffer, i, offset);
            if (end >= 0) {
              i = end;
              start = i + offset;
              continue;
            }
          }
          state = BEFORE_TAG_NAME;
          start = i + offset;
          break;
        }
        case IN_ATTRIBUTE_VALUE_DQ:
        case IN_ATTRIBUTE_VALUE_SQ: {
          const quote = state === IN_ATTRIBUTE_VALUE_DQ ? DQ : SQ;
          const end = c === quote ? i : buffer.indexOf(quote === DQ ? '"' : "'", i + 1);
          if (end < 0) {
            i = n - 1;
            break;
          }
          i = end;
          cbs.onattribdata(start, i + offset);
          start = -1;
          cbs.onattribend(quote === DQ ? QUOTE_DOUBLE : QUOTE_SINGLE, i + offset + 1);
          state = BEFORE_ATTRIBUTE_NAME;
          break;
        }
        case IN_ATTRIBUTE_NAME: {
          let k = i;
          let d = c;
          while (d !== EQ && !isEndOfTagSection(d)) {
            if (++k === n) break;
            d = buffer.charCodeAt(k);
          }
          if (k === n) {
            i = n - 1;
            break;
          }
          i = k;
          cbs.onattribname(start, i + offset);
          start = i + offset;
          state = AFTER_ATTRIBUTE_NAME;
          continue;
        }
        case BEFORE_ATTRIBUTE_NAME: {
          if (c === GT) {
            cbs.onopentagend(i + offset);
            state = TEXT;
            start = i + offset + 1;
          } else if (c === SLASH) {
            state = IN_SELF_CLOSING_TAG;
          } else if (!isWhitespace(c)) {
            state = IN_ATTRIBUTE_NAME;
            start = i + offset;
          }
          break;
        }
        case IN_TAG_NAME: {
          let k = i;
          while (!isEndOfTagSection(buffer.charCodeAt(k))) {
            if (++k === n) break;
          }
          if (k === n) {
            i = n - 1;
            break;
          }
          i = k;
          cbs.onopentagname(start, i + offset);
          start = -1;
          state = BEFORE_ATTRIBUTE_NAME;
          continue;
        }
        case IN_CLOSING_TAG_NAME: {
          let k = i;
          let d = c;
          while (d !== GT && !isWhitespace(d)) {
            if (++k === n) break;
            d = buffer.charCodeAt(k);
          }
          if (k === n) {
            i = n - 1;
            break;
          }
          i = k;
          cbs.onclosetag(start, i + offset);
          start = -1;
          state = AFTER_CLOSING_TAG_NAME;
          continue;
        }
        case BEFORE_TAG_NAME: {
          if (c === BANG) {
            state = BEFORE_DECLARATION;
            start = i + offset + 1;
          } else if (c === QUESTION) {
            state = IN_PROCESSING_INSTRUCTION;
            start = i + offset + 1;
          } else if (!isEndOfTagSection(c)) {
            start = i + offset;
            state = IN_TAG_NAME;
          } else if (c === SLASH) {
            state = BEFORE_CLOSING_TAG_NAME;
          } else {
            state = TEXT;
            continue;
          }
          break;
        }
        case AFTER_ATTRIBUTE_NAME: {
          if (c === EQ) {
            state = BEFORE_ATTRIBUTE_VALUE;
          } else if (c === SLASH || c === GT) {
            cbs.onattribend(QUOTE_NONE, start);
            start = -1;
            state = BEFORE_ATTRIBUTE_NAME;
            continue;
          } else if (!isWhitespace(c)) {
            cbs.onattribend(QUOTE_NONE, start);
            state = IN_ATTRIBUTE_NAME;
            start = i + offset;
          }
          break;
        }
        case BEFORE_ATTRIBUTE_VALUE: {
          if (c === DQ) {
            state = IN_ATTRIBUTE_VALUE_DQ;
            start = i + offset + 1;
          } else if (c === SQ) {
            state = IN_ATTRIBUTE_VALUE_SQ;
            start = i + offset + 1;
          } else if (!isWhitespace(c)) {
            start = i + offset;
            state = IN_ATTRIBUTE_VALUE_NQ;
            continue;
          }
          break;
        }
        case IN_ATTRIBUTE_VALUE_NQ: {
          if (isWhitespace(c) || c === GT) {
            cbs.onattribdata(start, i + offset);
            start = -1;
            cbs.onattribend(QUOTE_UNQUOTED, i + offset);
            state = BEFORE_ATTRIBUTE_NAME;
            continue;
          }
          break;
        }
        case IN_SELF_CLOSING_TAG: {
          if (c === GT) {
            cbs.onselfclosingtag(i + offset);
            state = TEXT;
            start = i + offset + 1;
          } else if (!isWhitespace(c)) {
            state = BEFORE_ATTRIBUTE_NAME;
            continue;
          }
          break;
        }
        case BEFORE_CLOSING_TAG_NAME: {
          if (c === GT) {
            state = TEXT;
          } else if (!isWhitespace(c)) {
            state = isEndOfTagSection(c) ? IN_SPECIAL_COMMENT : IN_CLOSING_TAG_NAME;
            start = i + offset;
          }
          break;
        }
        case AFTER_CLOSING_TAG_NAME:
        case IN_DECLARATION:
        case IN_PROCESSING_INSTRUCTION:
        case IN_SPECIAL_COMMENT: {
          const gt = c === GT ? i : buffer.indexOf('>', i + 1);
          if (gt < 0) {
            i = n - 1;
            break;
          }
          i = gt;
          if (state === IN_DECLARATION) cbs.ondeclaration(start, i + offset);
          else if (state === IN_PROCESSING_INSTRUCTION) cbs.onprocessinginstruction(start, i + offset);
          else if (state === IN_SPECIAL_COMMENT) cbs.oncomment(start, i + offset, 0);
          state = TEXT;
          start = i + offset + 1;
          break;
        }
        case IN_COMMENT_LIKE: {
          // The end sequence is `]]>` or `-->`: its first character twice, then `>`.
          const first = inCdata ? RBRACKET : DASH;
          const expected = sequence === 2 ? GT : first;
          if (c === expected) {
            if (++sequence === 3) {
              if (inCdata) cbs.oncdata(start, i + offset, 2);
              else cbs.oncomment(start, i + offset, 2);
              sequence = 0;
              start = i + offset + 1;
              state = TEXT;
            }
          } else if (sequence === 0) {
            const found = buffer.indexOf(inCdata ? ']' : '-', i + 1);
            if (found < 0) {
              i = n - 1;
            } else {
              i = found;
              sequence = 1;
            }
          } else if (c !== first) {
            // Longer runs (`--->`, `]]]>`) still end it; any other character starts over.
            sequence = 0;
          }
          break;
        }
        case BEFORE_DECLARATION: {
          if (c === LBRACKET) {
            state = CDATA_SEQUENCE;
            sequence = 0;
          } else {
            state = c === DASH ? BEFORE_COMMENT : IN_DECLARATION;
          }
          break;
        }
        case BEFORE_COMMENT: {
          if (c === DASH) {
            state = IN_COMMENT_LIKE;
            inCdata = false;
            // Short comments (`<!-->`) end at once, as in htmlparser2.
            sequence = 2;
            start = i + offset + 1;
          } else {
            state = IN_DECLARATION;
          }
          break;
        }
        case CDATA_SEQUENCE: {
          if (c === CDATA[sequence]) {
            if (++sequence === CDATA.length) {
              state = IN_COMMENT_LIKE;
              inCdata = true;
              sequence = 0;
              start = i + offset + 1;
            }
          } else {
            sequence = 0;
            state = IN_DECLARATION;
            continue;
          }
          break;
        }
      }
      i++;
    }

    // htmlparser2's `cleanup`: text and attribute values read so far are reported now.
    const index = i + offset;
    if (start !== index) {
      if (state === TEXT) {
        cbs.ontext(start, index);
        start = index;
      } else if (
        state === IN_ATTRIBUTE_VALUE_DQ ||
        state === IN_ATTRIBUTE_VALUE_SQ ||
        state === IN_ATTRIBUTE_VALUE_NQ
      ) {
        cbs.onattribdata(start, index);
        start = index;
      }
    }
    this.index = index;
    this.state = state;
    this.sectionStart = start;
    this.sequenceIndex = sequence;
    this.inCdata = inCdata;
  }
}
