/** Opening a local file as a source: clear errors naming the path, a size check before reading. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { MarqueeError } from '../../errors.js';
import type { RawSource, SourceNotModified, SourceOptions } from './types.js';

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
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: ${fsErrorReason(error)}`, { cause: error });
  }
  if (info.isDirectory()) throw new MarqueeError('SOURCE_UNREADABLE', `${label}: is a directory, not a file`);
  if (info.size > options.maxBytes) {
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${label}: ${info.size} bytes, more than the limit of ${options.maxBytes}`,
    );
  }
  // Size + mtime stand in for an ETag, so refreshes treat files and URLs alike.
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const metadata = { location: label, byteLength: info.size, etag, lastModified: info.mtime.toUTCString() };
  if (options.previous?.etag === etag) return { notModified: true, metadata };

  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  async function* body(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      throw new MarqueeError('SOURCE_UNREADABLE', `${label}: ${fsErrorReason(error)}`, { cause: error });
    }
  }
  // fs.ReadStream reads each chunk into a buffer of its own (shrunk to fit by a copy), held by nothing after it.
  return { notModified: false, body: body(), metadata, destroy: () => stream.destroy(), ownChunks: true };
}

/**
 * Why a file cannot be read, in the same words for every kind of source (a playlist, a guide, a
 * library file or folder).
 * @example fsErrorReason(Object.assign(new Error(), { code: 'ENOENT' })) // 'file not found'
 */
export function fsErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return error instanceof Error ? error.message : String(error);
}
