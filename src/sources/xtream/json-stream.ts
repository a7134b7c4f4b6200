/**
 * The elements of a large JSON list as they arrive: a panel's stream list can hold 50,000 objects
 * (tens of MB), and only a few fields of each are kept, so the answer is never whole in memory,
 * as text or as objects. A top-level array yields its elements; a top-level object (some panels
 * key their lists by id) yields its values; `null` yields nothing. An HTML page or anything else
 * that is not JSON throws SOURCE_INVALID.
 */
import { MarqueeError } from '../../errors.js';

/** The largest single element accepted (a stream entry is well under 4 KiB). */
const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

export type JsonRoot = 'array' | 'object' | 'null';

/**
 * Yields each element of the JSON list in `chunks`; `onRoot` hears what the top level was.
 * @example for await (const stream of jsonElements(source, 'get_live_streams')) keep(stream)
 */
export async function* jsonElements(
  chunks: AsyncIterable<Buffer>,
  what: string,
  onRoot?: (root: JsonRoot) => void,
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let root: JsonRoot | undefined;
  let head = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';
  let done = false;
  for await (const chunk of chunks) {
    let text = decoder.decode(chunk, { stream: true });
    if (root === undefined) {
      head += text;
      const trimmed = head.replace(/^[\uFEFF\s]+/, '');
      if (trimmed === '') continue;
      const first = trimmed[0]!;
      if (first === '[' || first === '{') {
        root = first === '[' ? 'array' : 'object';
        onRoot?.(root);
        text = trimmed.slice(1);
        depth = 1;
        head = '';
      } else if (trimmed.length < 4 && 'null'.startsWith(trimmed)) {
        continue;
      } else if (trimmed.startsWith('null')) {
        root = 'null';
        onRoot?.(root);
        return;
      } else if (trimmed.length < 256) {
        continue; // enough of it to tell an HTML page from other text
      } else {
        throw notJson(what, trimmed);
      }
    }
    if (done) continue;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) depth++;
      else if (c === 0x5d || c === 0x7d || (c === 0x2c && depth === 1)) {
        if (c !== 0x2c) depth--;
        if (depth <= 1) {
          if (depth === 1 && c !== 0x2c) continue;
          element += text.slice(start, i);
          start = i + 1;
          const value = parseElement(element, root!, what);
          element = '';
          if (value !== undefined) yield value;
          if (depth === 0) {
            done = true;
            break;
          }
        }
      }
    }
    if (!done) {
      element += text.slice(start);
      if (element.length > MAX_ELEMENT_CHARS) {
        throw new MarqueeError(
          'SOURCE_TOO_LARGE',
          `${what}: one element is larger than ${MAX_ELEMENT_CHARS} characters`,
        );
      }
    }
  }
  if (root === undefined) {
    if (head.trim() === '') throw new MarqueeError('SOURCE_INVALID', `${what}: the answer is empty, not JSON`);
    throw notJson(what, head.trim());
  }
  if (root !== 'null' && !done) {
    throw new MarqueeError('SOURCE_INVALID', `${what}: the answer ends before its list does (cut short)`);
  }
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
