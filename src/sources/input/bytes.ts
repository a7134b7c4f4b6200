/**
 * Byte-stream stages shared by files and URLs: gzip detected by its magic bytes (1f 8b), not by
 * a name or a header that may lie, decompressed as a stream whose output passes the same size cap
 * as the bytes read (limits.ts), so a small bomb cannot expand without bound.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { isMarqueeError, MarqueeError } from '../../errors.js';
import { limitBytes } from './limits.js';
import type { InflateOptions } from './types.js';

/**
 * Decompress when the stream starts with the gzip magic bytes, else pass it through. Up to
 * `layers` nested gzip layers are opened: a `.gz` file served with `Content-Encoding: gzip` has two.
 * @example for await (const chunk of maybeGunzip(raw, 1 << 30, 'guide.xml.gz')) parse(chunk)
 */
export async function* maybeGunzip(
  chunks: AsyncIterable<Buffer>,
  maxDecompressedBytes: number,
  label: string,
  layers = 2,
  onInflate?: () => void,
): AsyncGenerator<Buffer> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  try {
    // The magic may be split across chunks (a 1-byte first read), so gather two bytes first.
    while (headLength < 2) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const first = Buffer.concat(head);
    const rest = replay(first, ended ? undefined : iterator);
    if (layers > 0 && first[0] === 0x1f && first[1] === 0x8b) {
      onInflate?.();
      yield* maybeGunzip(gunzip(rest, maxDecompressedBytes, label), maxDecompressedBytes, label, layers - 1, onInflate);
    } else {
      yield* rest;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * `maybeGunzip` with the options a source hands out (SourceStream.undecoded): the same chunks the
 * source itself yields when iterated, in whichever thread calls it.
 * @example for await (const chunk of inflateChunks(raw.chunks, raw.inflate)) parse(chunk)
 */
export function inflateChunks(
  chunks: AsyncIterable<Uint8Array>,
  options: InflateOptions,
  onInflate?: () => void,
): AsyncGenerator<Buffer> {
  return maybeGunzip(
    chunks as AsyncIterable<Buffer>,
    options.maxDecompressedBytes,
    options.label,
    options.layers,
    onInflate,
  );
}

async function* replay(first: Buffer, iterator: AsyncIterator<Buffer> | undefined): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  if (!iterator) return;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    yield next.value;
  }
}

/**
 * Output chunk of the inflater: zlib's default of 16 KiB made a 370 MB guide 23,000 chunks, each
 * through every async stage of the read; 256 KiB is the chunk a file is read in. The inflating
 * itself runs on libuv's threads, so the next chunk is inflated while the parser works.
 */
const GUNZIP_CHUNK = 256 * 1024;

async function* gunzip(input: AsyncIterable<Buffer>, max: number, label: string): AsyncGenerator<Buffer> {
  const inflater = createGunzip({ chunkSize: GUNZIP_CHUNK });
  // Errors of the input (a size cap, a timeout) reach us through the destroyed inflater;
  // the promise itself is only caught so an early stop is not an unhandled rejection.
  // One compressed chunk read ahead, not Readable.from's sixteen: each waits while seven times its
  // size is parsed, long enough to outlive the young collections.
  pipeline(Readable.from(input, { objectMode: true, highWaterMark: 1 }), inflater).catch(() => {});
  try {
    yield* limitBytes(inflater as AsyncIterable<Buffer>, max, label, 'bytes once decompressed');
  } catch (error) {
    if (isMarqueeError(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: broken gzip data (${reason})`, { cause: error });
  } finally {
    // Not awaited: the input may be blocked on a slow socket, which the caller's close() ends.
    inflater.destroy();
  }
}
