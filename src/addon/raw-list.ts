/**
 * Pre-serialized JSON in an answer. A backend that writes a large list straight from its store
 * (a guide page is about 1 MB of programmes) answers `{ metasDetailed: rawJsonList(bytes, n) }`
 * instead of building objects the server would only serialize again. The add-on still enforces
 * the page limit from `count`, validates the list when asked to (`validateRawJson`), and hands
 * parsed objects to every caller that did not ask for raw values (the export, tests).
 *
 * Web APIs only: this is what every runtime runs. Node's frame pool (lists written into reused
 * memory) and its Buffer-typed helpers are in raw-json.ts.
 */
import { type Bytes, WEB_BYTES } from './bytes.js';

const RAW = Symbol.for('marquee.rawJson');

/** A JSON array already serialized as UTF-8 bytes, with the number of items it holds. */
export interface RawJsonList {
  readonly [RAW]: true;
  readonly bytes: Uint8Array;
  readonly count: number;
  /** Set by `allocRawJsonList`: the allocation around `bytes`, which has room for the answer's wrapper. */
  readonly frame?: Uint8Array;
  /**
   * Set by `allocRawJsonList` with a pool: gives `frame` back to it. Call it once nothing reads
   * the bytes any more (the answer was written out); not calling it only costs a new frame later.
   */
  readonly release?: () => void;
}

/**
 * Wraps `bytes` (a JSON array of `count` items) for an answer.
 * @example return { metasDetailed: rawJsonList(new TextEncoder().encode('[]'), 0) }
 */
export function rawJsonList(bytes: Uint8Array, count: number): RawJsonList {
  return { [RAW]: true, bytes, count };
}

/** A list written into `frame` (at `bytes`), given back by `release` when there is one. */
export function framedRawJsonList(bytes: Uint8Array, count: number, frame: Uint8Array, release?: () => void) {
  const list: RawJsonList = release
    ? { [RAW]: true, bytes, count, frame, release }
    : { [RAW]: true, bytes, count, frame };
  return list;
}

/** `{"key":` + the list + `}` written around the list inside its frame, or undefined when it has none. */
function wrapInPlace(key: string, list: RawJsonList, bytes: Bytes): Uint8Array | undefined {
  const frame = list.frame;
  if (frame === undefined) return undefined;
  const head = bytes.utf8(`{${JSON.stringify(key)}:`);
  const start = list.bytes.byteOffset - frame.byteOffset;
  const end = start + list.bytes.byteLength;
  if (head.length > start || end + 1 > frame.length) return undefined;
  frame.set(head, start - head.length);
  frame[end] = 0x7d; // }
  return frame.subarray(start - head.length, end + 1);
}

export function isRawJsonList(value: unknown): value is RawJsonList {
  return typeof value === 'object' && value !== null && (value as Partial<RawJsonList>)[RAW] === true;
}

const decoder = new TextDecoder();

/** The items of a raw list as objects. */
export function parseRawJsonList(list: RawJsonList): unknown[] {
  const items: unknown = JSON.parse(decoder.decode(list.bytes));
  if (!Array.isArray(items)) throw new TypeError('a raw JSON list does not hold a JSON array');
  return items;
}

/** `body` with every raw list replaced by its parsed items (the body itself when it has none). */
export function parseRawJson(body: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (!isRawJsonList(value)) continue;
    out ??= { ...body };
    out[key] = parseRawJsonList(value);
  }
  return out ?? body;
}

/**
 * An answer body as JSON bytes (`JSON.stringify` for plain bodies; raw lists are copied in as
 * they are, without being parsed), and when the bytes are a pooled list's frame (wrapped in
 * place), the function that gives it back once they are written out. Lists copied into the bytes
 * are given back at once. `bytes` makes them: Buffers on Node, plain arrays elsewhere.
 * @example new TextDecoder().decode(serializeLease({ metas: [] }).bytes) // '{"metas":[]}'
 */
export function serializeLease(
  body: Record<string, unknown>,
  bytes: Bytes = WEB_BYTES,
): { bytes: Uint8Array; release?: () => void } {
  const keys = Object.keys(body);
  const raws = keys.map((k) => body[k]).filter(isRawJsonList);
  if (raws.length === 0) return { bytes: bytes.utf8(JSON.stringify(body)) };
  if (keys.length === 1) {
    const list = raws[0]!;
    const wrapped = wrapInPlace(keys[0]!, list, bytes);
    if (wrapped !== undefined) return list.release ? { bytes: wrapped, release: list.release } : { bytes: wrapped };
  }
  const parts: Uint8Array[] = [];
  let first = true;
  for (const key of keys) {
    const value = body[key];
    if (value === undefined) continue;
    const member = `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (isRawJsonList(value)) parts.push(bytes.utf8(member), value.bytes);
    else parts.push(bytes.utf8(member + JSON.stringify(value)));
  }
  parts.push(bytes.utf8(first ? '{}' : '}'));
  const joined = bytes.concat(parts);
  for (const list of raws) list.release?.();
  return { bytes: joined };
}
