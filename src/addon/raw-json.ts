/**
 * Raw JSON lists on Node: lists written into frames of Buffer memory that are used again once
 * released (a guide page then costs no fresh memory), and the Buffer-typed serializers. The lists
 * themselves, and their serialization with Web APIs, are in raw-list.ts.
 */
import type { Bytes } from './bytes.js';
import { framedRawJsonList, type RawJsonList, serializeLease } from './raw-list.js';

export {
  isRawJsonList,
  parseRawJson,
  parseRawJsonList,
  type RawJsonList,
  rawJsonList,
} from './raw-list.js';

/** Answer bodies as Buffers, as Node's adapter, cache and callers have always had them. */
export const NODE_BYTES: Bytes = {
  utf8: (text) => Buffer.from(text),
  concat: (parts) => Buffer.concat(parts),
  copy: (bytes) => Buffer.from(bytes),
};

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
  if (pool === undefined) return { bytes, done: (count) => framedRawJsonList(bytes, count, frame) };
  let given = false;
  const release = () => {
    if (given) return;
    given = true;
    pool.give(frame);
  };
  return { bytes, done: (count) => framedRawJsonList(bytes, count, frame, release) };
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
  return serializeLease(body, NODE_BYTES) as { bytes: Buffer; release?: () => void };
}
