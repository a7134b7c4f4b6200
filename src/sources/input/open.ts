/**
 * The one entry point every importer reads through: a file path or http(s) URL in, a bounded,
 * gunzipped byte stream out (or "not modified"). Defaults suit a large XMLTV guide; the text
 * helper for small sources (M3U, JSON, CSV) has a much smaller cap.
 */
import { MarqueeError } from '../../errors.js';
import { inflateChunks } from './bytes.js';
import { startDeadline } from './deadline.js';
import { textEncodingOf } from './encoding.js';
import { openFile } from './file.js';
import { openHttp } from './http.js';
import { limitBytes } from './limits.js';
import { parseLocation, redactLocation } from './location.js';
import type {
  RawSource,
  SourceCopySink,
  SourceMetadata,
  SourceNotModified,
  SourceOptions,
  SourceStream,
  SourceText,
} from './types.js';

const MiB = 1024 * 1024;
const DEFAULT_MAX_BYTES = 512 * MiB;
const DEFAULT_MAX_DECOMPRESSED = 1024 * MiB;
const DEFAULT_TEXT_MAX_BYTES = 64 * MiB;

/**
 * Open a file path, `file://` or http(s) URL as a stream of (decompressed) bytes.
 * @example
 * const source = await openSource('https://x.example/guide.xml.gz', { allowPrivateAddresses: true });
 * if (!source.notModified) for await (const chunk of source) parser.write(chunk);
 */
export async function openSource(
  location: string,
  options: SourceOptions = {},
): Promise<SourceStream | SourceNotModified> {
  const opened = await openStream(location, options);
  return opened.notModified ? opened : opened.stream;
}

/** openSource, with the URL answered (unredacted) beside the stream. */
async function openStream(
  location: string,
  options: SourceOptions,
): Promise<
  | SourceNotModified
  | { readonly notModified: false; readonly stream: SourceStream; readonly url: string; status?: number }
> {
  const label = redactLocation(location);
  const parsed = parseLocation(location);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxDecompressed = options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED;

  if (parsed.kind === 'file') {
    if (!(options.allowFiles ?? options.allowPrivateAddresses ?? false)) {
      throw new MarqueeError('SOURCE_FORBIDDEN', `${label}: local files may not be read from this source`);
    }
    const raw = await openFile(parsed.path, label, { ...options, maxBytes });
    if (raw.notModified) return raw;
    const stream = toStream(raw, maxBytes, maxDecompressed, label, () => {}, options.copyTo);
    return { notModified: false, stream, url: parsed.path };
  }

  const deadline = startDeadline(options.timeoutMs ?? 600_000, label, options.signal);
  let raw: RawSource | SourceNotModified;
  try {
    raw = await openHttp(
      parsed.url,
      label,
      options,
      {
        maxBytes,
        connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
        maxRedirects: options.maxRedirects ?? 5,
        retries: options.retries ?? 2,
        retryDelayMs: options.retryDelayMs ?? 500,
      },
      deadline,
    );
  } catch (error) {
    deadline.dispose();
    throw error;
  }
  if (raw.notModified) {
    deadline.dispose();
    return raw;
  }
  const stream = toStream(raw, maxBytes, maxDecompressed, label, () => deadline.dispose(), options.copyTo);
  return { notModified: false, stream, url: (raw.url ?? parsed.url).href, status: raw.status ?? 200 };
}

function toStream(
  raw: RawSource,
  maxBytes: number,
  maxDecompressed: number,
  label: string,
  release: () => void,
  copyTo?: SourceCopySink,
): SourceStream {
  const limited = limitBytes(raw.body, maxBytes, label, 'bytes');
  // When the reader takes each chunk's memory (undecoded(), ownChunks), the copy gets a copy of
  // its own, which dies as soon as it is written.
  const read = (handOver: boolean) => (copyTo ? tee(limited, copyTo, handOver) : limited);
  const inflate = { label, maxDecompressedBytes: maxDecompressed, layers: 2 };
  let inflated = false;
  let closed = false;
  let iterated = false;
  const close = () => {
    if (closed) return;
    closed = true;
    raw.destroy();
    release();
  };
  /** `inner` iterated once, closing the source when it ends, fails or is left. */
  const once = (inner: AsyncGenerator<Buffer>): AsyncIterator<Buffer> => {
    if (iterated) throw new MarqueeError('SOURCE_UNREADABLE', `${label}: a source stream can be read only once`);
    iterated = true;
    return {
      async next() {
        try {
          const result = await inner.next();
          if (result.done) close();
          return result;
        } catch (error) {
          close();
          throw error;
        }
      },
      // Close first: the inner stages may be waiting on the socket, which only closing ends.
      async return() {
        close();
        await inner.return(undefined).catch(() => {});
        return { done: true, value: undefined };
      },
    };
  };
  return {
    notModified: false,
    metadata: raw.metadata,
    get inflated() {
      return inflated;
    },
    close,
    [Symbol.asyncIterator]: () =>
      once(
        inflateChunks(read(false), inflate, () => {
          inflated = true;
        }),
      ),
    undecoded() {
      const ownChunks = raw.ownChunks === true;
      const iterator = once(read(ownChunks));
      return { chunks: { [Symbol.asyncIterator]: () => iterator }, inflate, ownChunks };
    },
  };
}

/**
 * Read a small source whole and decode it as text (UTF-8, or UTF-16 when it starts with a
 * UTF-16 BOM), without the BOM. `maxBytes` defaults to 64 MiB and also caps the decompressed size.
 * @example const result = await readSourceText('channels.m3u', { allowFiles: true });
 */
export async function readSourceText(
  location: string,
  options: SourceOptions = {},
): Promise<SourceText | SourceNotModified> {
  const maxBytes = options.maxBytes ?? DEFAULT_TEXT_MAX_BYTES;
  const source = await openSource(location, {
    ...options,
    maxBytes,
    maxDecompressedBytes: options.maxDecompressedBytes ?? maxBytes,
  });
  if (source.notModified) return source;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return { notModified: false, text: decodeText(Buffer.concat(chunks)), metadata: source.metadata };
}

/** The first bytes of a source (`readSourceHead`), and how it answered. */
export interface SourceHead {
  readonly notModified: false;
  /** At most `headBytes` bytes from the start of the body (inflated when it is gzip). */
  readonly head: Buffer;
  /** True when the body ended within them: the whole answer was read. */
  readonly complete: boolean;
  readonly metadata: SourceMetadata;
  /** The URL answered after redirects (or the file path), unredacted: to resolve relative links, never to show. */
  readonly url: string;
  /** The HTTP status of the answer (absent for a file). */
  readonly status?: number;
}

export interface HeadOptions extends SourceOptions {
  /** Bytes read at most; the source is closed once they are in, whatever its size. */
  readonly headBytes: number;
  /** Asked after each chunk: true when the bytes so far tell enough, to stop reading sooner. */
  readonly enough?: (head: Buffer) => boolean;
}

/**
 * Read the start of a source and close it: at most `headBytes` bytes are held, and the file or
 * socket is closed as soon as they are in (or `enough` says so), however large the body says it is
 * (its Content-Length is not a reason to refuse it). For telling what a source is without reading
 * it: a live stream never ends.
 * @example const { head } = await readSourceHead('https://x/live.ts', { headBytes: 65_536 })
 */
export async function readSourceHead(location: string, options: HeadOptions): Promise<SourceHead | SourceNotModified> {
  const { headBytes, enough, ...rest } = options;
  const opened = await openStream(location, {
    ...rest,
    maxBytes: Number.MAX_SAFE_INTEGER,
    maxDecompressedBytes: Number.MAX_SAFE_INTEGER,
  });
  if (opened.notModified) return opened;
  const { stream, url, status } = opened;
  const buffer = Buffer.allocUnsafe(headBytes);
  let length = 0;
  // `enough` is asked at 16 bytes, then each time the bytes have doubled: a server sending a byte
  // at a time cannot make it look at the same bytes thousands of times.
  let ask = 16;
  let complete = true;
  try {
    for await (const chunk of stream) {
      length += chunk.copy(buffer, length, 0, Math.min(chunk.length, headBytes - length));
      if (length >= headBytes) {
        complete = false;
        break;
      }
      if (enough !== undefined && length >= ask) {
        ask = length * 2;
        if (enough(buffer.subarray(0, length))) {
          complete = false;
          break;
        }
      }
    }
  } finally {
    stream.close();
  }
  const head = Buffer.from(buffer.subarray(0, length));
  return { notModified: false, head, complete, metadata: stream.metadata, url, ...(status ? { status } : {}) };
}

/**
 * Bytes to text: UTF-16 when it starts with a UTF-16 BOM or looks like UTF-16 without one
 * (encoding.ts), else UTF-8; the BOM is dropped and invalid sequences become U+FFFD instead of
 * failing the whole source.
 * @example decodeText(Buffer.from('\uFEFFabc')) // 'abc'
 */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder(textEncodingOf(bytes)).decode(bytes);
}

/**
 * The bytes of `body`, each handed to `sink` before it goes on; a copy of it when `handOver`
 * (the reader takes the chunk's memory, and the sink may still be writing it).
 */
async function* tee(body: AsyncIterable<Buffer>, sink: SourceCopySink, handOver: boolean): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    await sink.write(handOver ? Buffer.from(chunk) : chunk);
    yield chunk;
  }
}
