/**
 * Pre-serialized JSON in an answer. A backend that writes a large list straight from its store
 * (a guide page is about 1 MB of programmes) answers `{ metasDetailed: rawJsonList(bytes, n) }`
 * instead of building objects the server would only serialize again. The add-on still enforces
 * the page limit from `count`, validates the list when asked to (`validateRawJson`), and hands
 * parsed objects to every caller that did not ask for raw values (the export, tests).
 */

const RAW = Symbol.for('marquee.rawJson');

/** A JSON array already serialized as UTF-8 bytes, with the number of items it holds. */
export interface RawJsonList {
  readonly [RAW]: true;
  readonly bytes: Uint8Array;
  readonly count: number;
  /** Set by `allocRawJsonList`: the allocation around `bytes`, which has room for the answer's wrapper. */
  readonly frame?: Buffer;
  /**
   * Set by `allocRawJsonList` with a pool: gives `frame` back to it. Call it once nothing reads
   * the bytes any more (the answer was written out); not calling it only costs a new frame later.
   */
  readonly release?: () => void;
}

/**
 * Frames for `allocRawJsonList` that are used again once released: a 1 MB guide page then costs
 * no fresh memory. Fresh memory is what made such pages slow: the OS maps it page by page (a
 * fault each, about 10 µs on a small VM), and the garbage collector frees it in bulk, in a pause.
 */
export interface FramePool {
  /** A frame of at least `bytes` bytes (used ones first). */
  take(bytes: number): Buffer;
  /** Back into the pool (kept when there is room, else left to the garbage collector). */
  give(frame: Buffer): void;
}

/** Frames are rounded up to this, so pages of slightly different sizes share them. */
const FRAME_STEP = 64 * 1024;

/** @example const pool = createFramePool(4); allocRawJsonList(size, pool) */
export function createFramePool(maxFree = 4): FramePool {
  const free: Buffer[] = [];
  return {
    take(bytes) {
      for (let i = free.length - 1; i >= 0; i--) {
        if (free[i]!.length >= bytes) return free.splice(i, 1)[0]!;
      }
      return Buffer.allocUnsafeSlow(Math.ceil(bytes / FRAME_STEP) * FRAME_STEP);
    },
    give(frame) {
      if (free.length < maxFree) free.push(frame);
      else {
        // Keep the largest ones: a smaller frame may not fit the next page.
        let smallest = 0;
        for (let i = 1; i < free.length; i++) if (free[i]!.length < free[smallest]!.length) smallest = i;
        if (free[smallest]!.length < frame.length) free[smallest] = frame;
      }
    },
  };
}

/**
 * Wraps `bytes` (a JSON array of `count` items) for an answer.
 * @example return { metasDetailed: rawJsonList(Buffer.from('[]'), 0) }
 */
export function rawJsonList(bytes: Uint8Array, count: number): RawJsonList {
  return { [RAW]: true, bytes, count };
}

/** Bytes kept before a list from `allocRawJsonList`: `{"metasDetailed":` and any other wrapper key fit. */
const HEAD_ROOM = 32;

/**
 * A list of `size` bytes to write into, with room around it: when the list is the whole answer,
 * the server wraps it in place instead of copying it (a guide page is about 1 MB). With a
 * `pool`, the frame comes from it and the list's `release` gives it back.
 * @example const list = allocRawJsonList(2); list.bytes.write('[]'); return { metas: list.done(0) };
 */
export function allocRawJsonList(
  size: number,
  pool?: FramePool,
): { readonly bytes: Buffer; done(count: number): RawJsonList } {
  const need = HEAD_ROOM + size + 1;
  const frame = pool ? pool.take(need) : Buffer.allocUnsafeSlow(need); // never a slice of the shared pool
  const bytes = frame.subarray(HEAD_ROOM, HEAD_ROOM + size);
  if (pool === undefined) return { bytes, done: (count) => ({ [RAW]: true, bytes, count, frame }) };
  let given = false;
  const release = () => {
    if (given) return;
    given = true;
    pool.give(frame);
  };
  return { bytes, done: (count) => ({ [RAW]: true, bytes, count, frame, release }) };
}

/** `{"key":` + the list + `}` written around the list inside its frame, or undefined when it has none. */
function wrapInPlace(key: string, list: RawJsonList): Buffer | undefined {
  const frame = list.frame;
  if (frame === undefined) return undefined;
  const head = Buffer.from(`{${JSON.stringify(key)}:`);
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

/** The items of a raw list as objects. */
export function parseRawJsonList(list: RawJsonList): unknown[] {
  const items: unknown = JSON.parse(
    Buffer.from(list.bytes.buffer, list.bytes.byteOffset, list.bytes.byteLength).toString(),
  );
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
 * An answer body as JSON bytes: `JSON.stringify` for plain bodies; raw lists are copied in as
 * they are, without being parsed.
 * @example serializeBody({ metas: [] }).toString() // '{"metas":[]}'
 */
export function serializeBody(body: Record<string, unknown>): Buffer {
  return serializeBodyLease(body).bytes;
}

/**
 * `serializeBody`, and when the bytes are a pooled list's frame (wrapped in place), the function
 * that gives it back once they are written out. Lists copied into the bytes are given back at once.
 */
export function serializeBodyLease(body: Record<string, unknown>): { bytes: Buffer; release?: () => void } {
  const keys = Object.keys(body);
  const raws = keys.map((k) => body[k]).filter(isRawJsonList);
  if (raws.length === 0) return { bytes: Buffer.from(JSON.stringify(body)) };
  if (keys.length === 1) {
    const list = raws[0]!;
    const wrapped = wrapInPlace(keys[0]!, list);
    if (wrapped !== undefined) return list.release ? { bytes: wrapped, release: list.release } : { bytes: wrapped };
  }
  const parts: Uint8Array[] = [];
  let first = true;
  for (const key of keys) {
    const value = body[key];
    if (value === undefined) continue;
    const member = `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (isRawJsonList(value)) parts.push(Buffer.from(member), value.bytes);
    else parts.push(Buffer.from(member + JSON.stringify(value)));
  }
  parts.push(Buffer.from(first ? '{}' : '}'));
  const bytes = Buffer.concat(parts);
  for (const list of raws) list.release?.();
  return { bytes };
}
