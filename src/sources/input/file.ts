/** Opening a local file as a source: clear errors naming the path, a size check before reading. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { MarqueeError } from '../../errors.js';
import type { RawSource, SourceNotModified, SourceOptions, SourceSnapshot } from './types.js';

/**
 * Open `path` for streaming. A file whose size and mtime match `options.previous.etag` is `notModified`.
 * @example const raw = await openFile('/data/list.m3u', '/data/list.m3u', {})
 */
export async function openFile(
  path: string,
  label: string,
  options: SourceOptions & { readonly maxBytes: number },
): Promise<RawSource | SourceNotModified> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: ${describeFsError(error)}`, { cause: error });
  }
  if (info.isDirectory()) throw new MarqueeError('SOURCE_UNREADABLE', `${label}: is a directory, not a file`);
  if (info.size > options.maxBytes) {
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${label}: ${info.size} bytes, more than the limit of ${options.maxBytes}`,
    );
  }
  const etag = fileEtag(info);
  const metadata = { location: label, byteLength: info.size, etag, lastModified: info.mtime.toUTCString() };
  if (options.previous?.etag === etag) return { notModified: true, metadata };

  // With a sink that takes snapshots, the kernel copies the file and the read is of the copy:
  // cheaper than writing every chunk again (about 1 s of CPU for a 370 MB guide), and what is
  // parsed is what was kept even when the file changes meanwhile. The snapshot may have started
  // earlier (prefetchFile): the validators are those of the file as it was copied, so a later
  // refresh compares against what was read.
  let from = path;
  let described = metadata;
  if (options.copyTo?.snapshot) {
    let taken: SourceSnapshot;
    try {
      taken = await options.copyTo.snapshot(path);
    } catch (error) {
      if (error instanceof MarqueeError) throw error;
      throw new MarqueeError('SOURCE_UNREADABLE', `${label}: ${describeFsError(error)}`, { cause: error });
    }
    from = taken.path;
    described = {
      ...metadata,
      byteLength: taken.size,
      etag: fileEtag(taken),
      lastModified: new Date(taken.mtimeMs).toUTCString(),
    };
  }
  const stream = createReadStream(from, { highWaterMark: 256 * 1024 });
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      throw new MarqueeError('SOURCE_UNREADABLE', `${label}: ${describeFsError(error)}`, { cause: error });
    }
  }
  return {
    notModified: false,
    body: body(),
    metadata: described,
    destroy: () => stream.destroy(),
    copied: from !== path,
  };
}

/** Size + mtime stand in for an ETag, so refreshes treat files and URLs alike. */
function fileEtag(info: { size: number; mtimeMs: number }): string {
  return `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
}

/**
 * Starts the snapshot `openFile` would take of `path` (when `options.copyTo` takes snapshots), so
 * the kernel copies it on an idle core while the caller does other work; `openFile` then waits
 * for the same copy. Nothing when the read would not copy it: not a file, over `maxBytes`, or
 * unchanged since `options.previous`. Never throws: the read reports what went wrong.
 * @example prefetchFile('/data/guide.xml', { copyTo: copy, maxBytes: 512 * 1024 * 1024 })
 */
export async function prefetchFile(
  path: string,
  options: SourceOptions & { readonly maxBytes: number },
): Promise<void> {
  const sink = options.copyTo;
  if (!sink?.snapshot) return;
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > options.maxBytes || options.previous?.etag === fileEtag(info)) return;
    await sink.snapshot(path);
  } catch {
    // openFile meets the same error and names it.
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return error instanceof Error ? error.message : String(error);
}
