/**
 * Opening a live stream (the relay's upstream) through the same guarded HTTP reader as every
 * source: the address policy on every redirect hop, the caller's request headers, redirects and a
 * connect timeout. What differs from a source read: a live stream never ends, so there is no total
 * byte cap nor deadline for the whole read; instead the answer must come within `openTimeoutMs`
 * and the bytes must keep coming: `stallTimeoutMs` without a byte ends the stream with
 * SOURCE_TIMEOUT. Chunks larger than `maxChunkBytes` are handed on in slices of that size, so
 * what a reader holds at once is bounded whatever the socket gives.
 */
import { Readable } from 'node:stream';
import { MarqueeError } from '../../errors.js';
import { maybeGunzip } from './bytes.js';
import { startDeadline } from './deadline.js';
import { openHttp } from './http.js';
import { parseLocation, redactLocation } from './location.js';
import type { SourceMetadata, SourceOptions } from './types.js';

export interface LiveOptions
  extends Pick<
    SourceOptions,
    | 'allowPrivateAddresses'
    | 'allowAddress'
    | 'privateUrls'
    | 'userAgent'
    | 'headers'
    | 'connectTimeoutMs'
    | 'maxRedirects'
    | 'signal'
  > {
  /** No byte for this long ends the stream (SOURCE_TIMEOUT). */
  readonly stallTimeoutMs: number;
  /** Time for the answer to come, redirects included. Default: `stallTimeoutMs` plus the connect timeout. */
  readonly openTimeoutMs?: number;
  /** Largest chunk handed on. Default 256 KiB. */
  readonly maxChunkBytes?: number;
  /** Extra attempts at opening after a network error, 5xx or 429. Default 1. */
  readonly retries?: number;
}

/** An open live stream. */
export interface LiveSource {
  /** Its bytes (gzip undone when the server sent it so), for `stream.pipeline`. */
  readonly body: Readable;
  readonly metadata: SourceMetadata;
  readonly status: number;
  /** The URL answered after redirects, unredacted: to resolve a playlist's relative URIs, never to show. */
  readonly url: string;
  /** Stops reading and closes the socket; safe to call more than once. */
  close(): void;
  /** Resolves once the connection is closed (after `close()`, or when the server ended it). */
  readonly closed: Promise<void>;
}

const DEFAULT_CHUNK = 256 * 1024;

/**
 * @example
 * const live = await openLive('http://tv.example/live/1.ts', { stallTimeoutMs: 6000, headers: { referer: 'https://tv.example/' } });
 * await pipeline(live.body, segmenterSink);
 */
export async function openLive(location: string, options: LiveOptions): Promise<LiveSource> {
  const label = redactLocation(location);
  const parsed = parseLocation(location);
  if (parsed.kind !== 'url')
    throw new MarqueeError('SOURCE_FORBIDDEN', `${label}: a live stream must be an http(s) URL`);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const deadline = startDeadline(
    options.openTimeoutMs ?? options.stallTimeoutMs + connectTimeoutMs,
    label,
    options.signal,
  );
  let raw: Awaited<ReturnType<typeof openHttp>>;
  try {
    raw = await openHttp(
      parsed.url,
      label,
      options,
      {
        maxBytes: Number.MAX_SAFE_INTEGER,
        connectTimeoutMs,
        maxRedirects: options.maxRedirects ?? 5,
        retries: options.retries ?? 1,
        retryDelayMs: 250,
      },
      deadline,
    );
  } finally {
    // The answer is in (or never came): from here on only the stall timer bounds the read.
    deadline.dispose();
  }
  if (raw.notModified) {
    throw new MarqueeError('SOURCE_UNREADABLE', `${label}: answered 304 to an unconditional request`);
  }
  const source = raw;
  const maxChunk = options.maxChunkBytes ?? DEFAULT_CHUNK;
  let stalled = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      source.destroy();
    }, options.stallTimeoutMs);
    timer.unref?.();
  };
  async function* guarded(): AsyncGenerator<Buffer> {
    arm();
    try {
      for await (const chunk of maybeGunzip(source.body, Number.MAX_SAFE_INTEGER, label, 1)) {
        arm();
        for (let at = 0; at < chunk.length; at += maxChunk) {
          yield at === 0 && chunk.length <= maxChunk ? chunk : chunk.subarray(at, at + maxChunk);
        }
      }
      if (stalled) throw stallError(label, options.stallTimeoutMs);
    } catch (error) {
      if (stalled) throw stallError(label, options.stallTimeoutMs);
      if (closed) return;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
  // One chunk read ahead at most: the reader's pace is the socket's.
  const body = Readable.from(guarded(), { objectMode: true, highWaterMark: 1 });
  return {
    body,
    metadata: source.metadata,
    status: source.status ?? 200,
    url: (source.url ?? parsed.url).href,
    closed: source.closed ?? Promise.resolve(),
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      source.destroy();
      body.destroy();
    },
  };
}

function stallError(label: string, ms: number): MarqueeError {
  return new MarqueeError('SOURCE_TIMEOUT', `${label}: no bytes for ${Math.round(ms / 100) / 10} s (stalled)`);
}
