/**
 * Copies of sources as they were read: an import keeps one per source so that, when the source
 * goes bad later, what it last held can be read again. A copy is the source's bytes as they came
 * (before decompression): a gzip guide stays gzip, a plain one plain. Compressing a plain guide
 * while it is read cost a quarter of the import's time on one core; reading a copy back goes
 * through the same gunzip stage as the source itself, so it yields the same bytes.
 */
import { once } from 'node:events';
import { closeSync, createWriteStream, openSync, readSync } from 'node:fs';
import { MarqueeError } from '../../errors.js';
import { inflateChunks } from './bytes.js';
import { limitBytes } from './limits.js';
import { decodeText } from './open.js';
import type { SourceCopySink, SourceStream } from './types.js';

const MiB = 1024 * 1024;
/** Bytes of a copy that may wait for the disk before the read waits too. */
const COPY_BUFFER = 8 * MiB;

/** A copy being written to a file; `finish` once the source was read whole, else `discard`. */
export interface CopyFile extends SourceCopySink {
  readonly path: string;
  /** Flushes and closes the file; resolves with its size in bytes. */
  finish(): Promise<number>;
  /** Stops writing (the caller removes the file). */
  discard(): void;
}

/**
 * Starts a copy in `path` (created or truncated).
 * @example const copy = createCopyFile('/tmp/x/guide.copy'); await openSource(url, { copyTo: copy })
 */
export function createCopyFile(path: string): CopyFile {
  // Room for a few MiB of chunks: with the default 16 KiB every chunk of a source waited for its
  // own write before the parser got it; now the writes run on libuv's threads while it parses.
  // The chunks are the source's own buffers (not copied), so this bounds memory at COPY_BUFFER.
  // 0600 whatever the umask: a copy holds what the source served (accounts in stream URLs).
  const file = createWriteStream(path, { highWaterMark: COPY_BUFFER, mode: 0o600 });
  let failure: Error | undefined;
  file.on('error', (error) => {
    failure ??= error;
  });
  const fail = (error: Error): MarqueeError =>
    new MarqueeError(
      'STORE_UNAVAILABLE',
      `${(error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'the disk is full: ' : ''}cannot write the copy of a source to ${path}: ${error.message}`,
      { cause: error },
    );

  return {
    path,
    async write(chunk) {
      if (failure) throw fail(failure);
      if (!file.write(chunk)) {
        // Wait for room, or for a write error (listeners removed either way: one copy takes
        // thousands of chunks).
        await new Promise<void>((resolve) => {
          const done = () => {
            file.off('drain', done);
            file.off('error', done);
            resolve();
          };
          file.once('drain', done);
          file.once('error', done);
        });
      }
      if (failure) throw fail(failure);
    },
    async finish() {
      const closed = once(file, 'close');
      file.end();
      await closed.catch((error: Error) => {
        throw fail(error);
      });
      if (failure) throw fail(failure);
      return file.bytesWritten;
    },
    discard() {
      file.destroy();
    },
  };
}

/**
 * The bytes of a file `chunkBytes` at a time, read as they are asked for (a store writing a copy
 * inside a synchronous transaction takes them this way).
 */
export function* readFileChunks(path: string, chunkBytes = MiB): Generator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      const n = readSync(fd, buffer, 0, chunkBytes, null);
      if (n === 0) return;
      yield n === chunkBytes ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Limits for reading a copy back: those of the source it copies. */
export interface CopyReadOptions {
  /** Bytes after decompression. Default 1 GiB. */
  readonly maxDecompressedBytes?: number;
}

/**
 * A stored copy (chunks, e.g. from the store or `readFileChunks`) as a source stream of its
 * decompressed bytes, named `label` in errors.
 * @example for await (const chunk of openCopy(store.sourceCopy(key), 'guide.xml')) parse(chunk)
 */
export function openCopy(
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  label: string,
  options: CopyReadOptions = {},
): SourceStream {
  const max = options.maxDecompressedBytes ?? 1024 * MiB;
  const body = (async function* () {
    yield* chunks;
  })();
  const limited = limitBytes(body, max, label, 'bytes');
  const inflate = { label, maxDecompressedBytes: max, layers: 2 };
  let inflated = false;
  const decoded = inflateChunks(limited, inflate, () => {
    inflated = true;
  });
  let closed = false;
  return {
    notModified: false,
    metadata: { location: label },
    get inflated() {
      return inflated;
    },
    close() {
      if (closed) return;
      closed = true;
      void decoded.return(undefined).catch(() => {});
      void limited.return(undefined).catch(() => {});
    },
    [Symbol.asyncIterator]: () => decoded,
    // The chunks may be a store's or reused: the reader copies them.
    undecoded: () => ({ chunks: limited, inflate, ownChunks: false }),
  };
}

/**
 * A stored copy of a small source (a playlist, a library file) as text, decoded like the source.
 * @example const text = await readCopyText(store.sourceCopy(key), 'tv.m3u', 64 << 20)
 */
export async function readCopyText(
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  label: string,
  maxBytes: number,
): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of openCopy(chunks, label, { maxDecompressedBytes: maxBytes })) parts.push(chunk);
  return decodeText(Buffer.concat(parts));
}
