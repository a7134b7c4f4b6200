/**
 * An account's live snapshot read back from its text (fresh, or a last good copy) one stream at a
 * time. `JSON.parse` of the whole text made an object per stream before a single playlist entry
 * existed, and both were held at once: for 300,000 streams, 36 MB of objects beside the entries
 * and the text, and as much again in garbage (issue 48). Here the text is scanned for the
 * `streams` array and each element is parsed on its own when its turn comes; the rest of the
 * snapshot (format, categories, warnings) is parsed without it.
 */
import type { LiveSnapshot, LiveStream } from './live.js';
import { obj } from './values.js';

/** A snapshot's members but its streams, and its streams one by one. */
export interface ScannedSnapshot extends Omit<LiveSnapshot, 'streams'> {
  readonly streams: Iterable<LiveStream>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The index just past the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const close = text.indexOf('"', i);
    if (close === -1) return -1;
    let slashes = 0;
    for (let k = close - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return close + 1;
    i = close + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the top-level `"streams": [` array opens and closes (its brackets), or undefined. */
function streamsArray(text: string): { open: number; close: number } | undefined {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return undefined;
      if (depth === 1 && open === -1 && text.slice(i, end) === '"streams"') {
        let k = end;
        while (isSpace(text.charCodeAt(k))) k++;
        if (text.charCodeAt(k) === COLON) {
          k++;
          while (isSpace(text.charCodeAt(k))) k++;
          if (text.charCodeAt(k) === OPEN_BRACKET) {
            open = k;
            depth++;
            i = k;
            continue;
          }
        }
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (open !== -1 && depth === 1) return { open, close: i };
    }
  }
  return undefined;
}

/** The elements of the array whose brackets are at `open` and `close`, each as JSON text. */
function* elementTexts(text: string, open: number, close: number): Generator<string> {
  let depth = 0;
  let start = -1;
  for (let i = open + 1; i < close; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (start === -1) start = i;
      i = stringEnd(text, i) - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (start === -1) start = i;
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && depth === 0) {
      if (start !== -1) yield text.slice(start, i);
      start = -1;
    } else if (start === -1 && !isSpace(c)) start = i;
  }
  if (start !== -1) yield text.slice(start, close).trimEnd();
}

/**
 * A snapshot from its text, checked for its format; its streams are parsed as they are iterated.
 * @example for (const s of scanSnapshot(text, label).streams) console.log(s.n)
 */
export function scanSnapshot(text: string, label: string): ScannedSnapshot {
  const notJson = () => new Error(`${label}: the copy of its live streams is not JSON`);
  const array = streamsArray(text);
  let data: unknown;
  try {
    data = JSON.parse(array === undefined ? text : `${text.slice(0, array.open)}[]${text.slice(array.close + 1)}`);
  } catch {
    throw notJson();
  }
  const snapshot = obj(data);
  if (snapshot?.format !== 'marquee-xtream-live/1' || !Array.isArray(snapshot.streams) || array === undefined) {
    throw new Error(`${label}: the copy of its live streams is not a Marquee Xtream snapshot`);
  }
  const head = snapshot as unknown as Omit<LiveSnapshot, 'streams'>;
  return {
    ...head,
    streams: {
      *[Symbol.iterator]() {
        for (const element of elementTexts(text, array.open, array.close)) {
          try {
            yield JSON.parse(element) as LiveStream;
          } catch {
            throw notJson();
          }
        }
      },
    },
  };
}
