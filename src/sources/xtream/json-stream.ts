/**
 * The elements of a large JSON list as they arrive: a panel's stream list can hold 50,000 objects
 * (tens of MB), and only a few fields of each are kept, so the answer is never whole in memory,
 * as text or as objects. A top-level array yields its elements; a top-level object (some panels
 * key their lists by id) yields its values; `null` yields nothing. An HTML page or anything else
 * that is not JSON throws SOURCE_INVALID.
 */
import { MarqueeError } from '../../errors.js';

/** The largest single element accepted, in bytes (a stream entry is well under 4 KiB). */
const MAX_ELEMENT_BYTES = 4 * 1024 * 1024;
/** Bytes looked at to tell an HTML page (or other text) from JSON. */
const HEAD_BYTES = 256;

export type JsonRoot = 'array' | 'object' | 'null';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * Yields each element of the JSON list in `chunks`; `onRoot` hears what the top level was. The
 * bytes are scanned as they are (the characters that delimit JSON are ASCII, never part of a
 * multi-byte UTF-8 character) and each element is decoded once, on its own: a 60 MB list is not
 * turned into 60 MB of text first.
 * @example for await (const stream of jsonElements(source, 'get_live_streams')) keep(stream)
 */
export async function* jsonElements(
  chunks: AsyncIterable<Buffer>,
  what: string,
  onRoot?: (root: JsonRoot) => void,
): AsyncGenerator<unknown> {
  let root: JsonRoot | undefined;
  let head: Buffer = Buffer.alloc(0);
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The current element's bytes from earlier chunks. */
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let done = false;
  for await (const received of chunks) {
    if (done) continue;
    let chunk = received;
    if (root === undefined) {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const at = firstToken(head);
      if (at === head.length) continue;
      const first = head[at];
      if (first === 0x5b || first === 0x7b) {
        root = first === 0x5b ? 'array' : 'object';
        onRoot?.(root);
        chunk = head.subarray(at + 1);
        depth = 1;
      } else if (head.length - at < 4 && 'null'.startsWith(head.toString('latin1', at))) {
        continue;
      } else if (head.toString('latin1', at, at + 4) === 'null') {
        root = 'null';
        onRoot?.(root);
        return;
      } else if (head.length - at < HEAD_BYTES) {
        continue; // enough of it to tell an HTML page from other text
      } else {
        throw notJson(what, head.toString('utf8', at, at + HEAD_BYTES * 4));
      }
      head = Buffer.alloc(0);
    }
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === 0x5b || c === 0x7b) depth++;
      else if (c === 0x5d || c === 0x7d || (c === COMMA && depth === 1)) {
        if (c !== COMMA) depth--;
        if (depth <= 1) {
          if (depth === 1 && c !== COMMA) continue;
          const bytes =
            pieces.length === 0 ? chunk.subarray(start, i) : Buffer.concat([...pieces, chunk.subarray(start, i)]);
          pieces = [];
          pieceBytes = 0;
          start = i + 1;
          const value = parseElement(bytes.toString('utf8'), root!, what);
          if (value !== undefined) yield value;
          if (depth === 0) {
            done = true;
            break;
          }
        }
      }
    }
    if (!done && start < chunk.length) {
      pieces.push(chunk.subarray(start));
      pieceBytes += chunk.length - start;
      if (pieceBytes > MAX_ELEMENT_BYTES) {
        throw new MarqueeError('SOURCE_TOO_LARGE', `${what}: one element is larger than ${MAX_ELEMENT_BYTES} bytes`);
      }
    }
  }
  if (root === undefined) {
    const text = head.toString('utf8').replace(/^[\uFEFF\s]+/, '');
    if (text.trim() === '') throw new MarqueeError('SOURCE_INVALID', `${what}: the answer is empty, not JSON`);
    throw notJson(what, text);
  }
  if (root !== 'null' && !done) {
    throw new MarqueeError('SOURCE_INVALID', `${what}: the answer ends before its list does (cut short)`);
  }
}

/** Where the first token of `bytes` starts: past white space and byte order marks. */
function firstToken(bytes: Buffer): number {
  let at = 0;
  while (at < bytes.length) {
    const c = bytes[at]!;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) at++;
    else if (c === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf) at += 3;
    else if (c === 0xef && at + 3 > bytes.length)
      return bytes.length; // a byte order mark cut short
    else return at;
  }
  return at;
}

function parseElement(text: string, root: JsonRoot, what: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    if (root === 'array') return JSON.parse(text);
    const member = JSON.parse(`{${text}}`) as Record<string, unknown>;
    return Object.values(member)[0];
  } catch (error) {
    throw new MarqueeError('SOURCE_INVALID', `${what}: invalid JSON: ${(error as Error).message}`);
  }
}

/** Why an answer that should be JSON is not, with no part of it quoted (it may echo secrets). */
export function notJson(what: string, text: string): MarqueeError {
  const head = text.replace(/^[\uFEFF\s]+/, '').slice(0, 256);
  const html = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(head) || /<html[\s>]/i.test(head);
  return new MarqueeError(
    'SOURCE_INVALID',
    html ? `${what}: answered an HTML page, not JSON` : `${what}: the answer is not JSON`,
  );
}
