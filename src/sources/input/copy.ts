/**
 * Copies of sources as they were read: an import keeps one per source so that, when the source
 * goes bad later, what it last held can be read again. A copy is the source's bytes as they came
 * (before decompression): a gzip guide stays gzip, a plain one plain. Compressing a plain guide
 * while it is read cost a quarter of the import's time on one core; reading a copy back goes
 * through the same gunzip stage as the source itself, so it yields the same bytes.
 */
import { once } from 'node:events';
import { closeSync, constants, createWriteStream, openSync, readSync, type WriteStream } from 'node:fs';
import { access, copyFile, stat } from 'node:fs/promises';
import { MarqueeError } from '../../errors.js';
import { limitBytes, maybeGunzip } from './bytes.js';
import { decodeText } from './open.js';
import type { SourceCopySink, SourceSnapshot, SourceStream } from './types.js';

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

/** Errors of a snapshot that are the copy's side (the disk it is written to), not the source's. */
const COPY_SIDE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG']);

/**
 * Starts a copy in `path` (created or truncated): written chunk by chunk, or taken whole from a
 * local file with `snapshot`.
 * @example const copy = createCopyFile('/tmp/x/guide.copy'); await openSource(url, { copyTo: copy })
 */
export function createCopyFile(path: string): CopyFile {
  let file: WriteStream | undefined;
  let snapshot: { readonly from: string; readonly taken: Promise<SourceSnapshot> } | undefined;
  let failure: Error | undefined;
  const fail = (error: Error): MarqueeError =>
    new MarqueeError(
      'STORE_UNAVAILABLE',
      `${(error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'the disk is full: ' : ''}cannot write the copy of a source to ${path}: ${error.message}`,
      { cause: error },
    );
  const stream = (): WriteStream => {
    if (file) return file;
    // Room for a few MiB of chunks: with the default 16 KiB every chunk of a source waited for its
    // own write before the parser got it; now the writes run on libuv's threads while it parses.
    // The chunks are the source's own buffers (not copied), so this bounds memory at COPY_BUFFER.
    file = createWriteStream(path, { highWaterMark: COPY_BUFFER });
    file.on('error', (error) => {
      failure ??= error;
    });
    return file;
  };

  return {
    path,
    async write(chunk) {
      if (snapshot) throw new Error(`the copy ${path} was taken as a snapshot; it takes no more bytes`);
      const out = stream();
      if (failure) throw fail(failure);
      if (!out.write(chunk)) {
        // Wait for room, or for a write error (listeners removed either way: one copy takes
        // thousands of chunks).
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('error', done);
            resolve();
          };
          out.once('drain', done);
          out.once('error', done);
        });
      }
      if (failure) throw fail(failure);
    },
    snapshot(from) {
      if (file) return Promise.reject(new Error(`the copy ${path} is being written; it cannot be a snapshot`));
      if (snapshot && snapshot.from !== from) {
        return Promise.reject(new Error(`the copy ${path} is a snapshot of ${snapshot.from}, not of ${from}`));
      }
      snapshot ??= { from, taken: takeSnapshot(from, path, fail) };
      return snapshot.taken;
    },
    async finish() {
      if (snapshot) {
        await snapshot.taken;
        return (await stat(path)).size;
      }
      const out = stream();
      const closed = once(out, 'close');
      out.end();
      await closed.catch((error: Error) => {
        throw fail(error);
      });
      if (failure) throw fail(failure);
      return out.bytesWritten;
    },
    discard() {
      file?.destroy();
    },
  };
}

/**
 * `from` copied to `path` by the kernel, with `from`'s size and mtime just before. FICLONE: a clone
 * where the file system has them (btrfs, XFS), else copy_file_range. Errors of the copy's side
 * (disk full, a folder gone) become `fail`'s; the source's own (missing, unreadable) stay as they are.
 */
async function takeSnapshot(from: string, path: string, fail: (error: Error) => MarqueeError): Promise<SourceSnapshot> {
  const info = await stat(from);
  try {
    await copyFile(from, path, constants.COPYFILE_FICLONE);
  } catch (error) {
    // The errno does not say which side failed: a source still readable means the copy's did.
    const copySide =
      COPY_SIDE.has((error as NodeJS.ErrnoException).code ?? '') ||
      (await access(from, constants.R_OK).then(
        () => true,
        () => false,
      ));
    throw copySide ? fail(error as Error) : error;
  }
  return { path, size: info.size, mtimeMs: info.mtimeMs };
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
  let inflated = false;
  const decoded = maybeGunzip(limitBytes(body, max, label, 'bytes'), max, label, 2, () => {
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
    },
    [Symbol.asyncIterator]: () => decoded,
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
