/**
 * A validating scan of JSON text that builds no values: it finds where each library item
 * starts (so problems name a line) and where the text stops being JSON (so a broken file names
 * a line and column). `JSON.parse` builds the values afterwards; its own messages carry no
 * reliable position across Node versions.
 */

/** Deeper nesting than any library item needs; bounds the recursion on hostile input. */
export const MAX_JSON_DEPTH = 64;

export type JsonScan =
  | { readonly ok: true; readonly root: 'array' | 'object' | 'other'; readonly itemStarts: readonly number[] }
  | { readonly ok: false; readonly offset: number; readonly message: string };

class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Scan `text`; `itemStarts` are the offsets of the root array's elements, or of the elements
 * of the root object's `items` array.
 *
 * @example scanJson('[{"a":1},\n{"b":2}]') // { ok: true, root: 'array', itemStarts: [1, 10] }
 */
export function scanJson(text: string): JsonScan {
  let i = 0;
  const itemStarts: number[] = [];

  const skipSpace = () => {
    for (;;) {
      const ch = text.charCodeAt(i);
      if (ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09) i++;
      else return;
    }
  };
  const describeHere = () => (i >= text.length ? 'end of file' : `'${text[i]}'`);
  const expect = (char: string, what: string) => {
    skipSpace();
    if (text[i] !== char) throw new ScanError(`expected ${what} but found ${describeHere()}`, i);
    i++;
  };

  const skipPattern = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };

  const string = (): string => {
    const start = i;
    i++; // opening quote
    for (;;) {
      if (i >= text.length) throw new ScanError('unterminated string', start);
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        i++;
        return text.slice(start, i);
      }
      if (ch === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) throw new ScanError('invalid escape sequence in string', i);
        i = ESCAPE.lastIndex;
      } else if (ch < 0x20) {
        throw new ScanError('control character (such as a raw newline) inside a string', i);
      } else i++;
    }
  };

  const value = (depth: number, items?: number[]): void => {
    skipSpace();
    if (depth > MAX_JSON_DEPTH) throw new ScanError(`nested deeper than ${MAX_JSON_DEPTH} levels`, i);
    const ch = text[i];
    if (ch === '{') object(depth);
    else if (ch === '[') array(depth, items);
    else if (ch === '"') string();
    else if (!skipPattern(NUMBER) && !skipPattern(LITERAL)) {
      throw new ScanError(`expected a value but found ${describeHere()}`, i);
    }
  };

  const array = (depth: number, items?: number[]) => {
    i++;
    skipSpace();
    if (text[i] === ']') return void i++;
    for (;;) {
      skipSpace();
      if (text[i] === ']') throw new ScanError('trailing comma before ]', i);
      items?.push(i);
      value(depth + 1);
      skipSpace();
      if (text[i] === ',') i++;
      else return expect(']', "',' or ']' after an array element");
    }
  };

  const object = (depth: number) => {
    i++;
    skipSpace();
    if (text[i] === '}') return void i++;
    for (;;) {
      skipSpace();
      if (text[i] === '}') throw new ScanError('trailing comma before }', i);
      if (text[i] !== '"')
        throw new ScanError(`expected a property name in double quotes but found ${describeHere()}`, i);
      const key = string();
      expect(':', "':' after a property name");
      skipSpace();
      const isItems = depth === 0 && text[i] === '[' && key === '"items"';
      if (isItems) itemStarts.length = 0; // a repeated key: JSON.parse keeps the last
      value(depth + 1, isItems ? itemStarts : undefined);
      skipSpace();
      if (text[i] === ',') i++;
      else return expect('}', "',' or '}' after a property value");
    }
  };

  try {
    skipSpace();
    const first = text[i];
    value(0, itemStarts);
    skipSpace();
    if (i < text.length) throw new ScanError(`unexpected ${describeHere()} after the end of the JSON value`, i);
    return { ok: true, root: first === '[' ? 'array' : first === '{' ? 'object' : 'other', itemStarts };
  } catch (error) {
    if (error instanceof ScanError) return { ok: false, offset: error.offset, message: error.message };
    throw error;
  }
}

/** 1-based line and column of each offset; offsets must be ascending. */
export function lineColumns(text: string, offsets: readonly number[]): { line: number; column: number }[] {
  const out: { line: number; column: number }[] = [];
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const offset of offsets) {
    for (; at < offset && at < text.length; at++) {
      if (text.charCodeAt(at) === 0x0a) {
        line++;
        lineStart = at + 1;
      }
    }
    out.push({ line, column: offset - lineStart + 1 });
  }
  return out;
}
