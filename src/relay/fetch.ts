/**
 * The relay's requests upstream, all through `sources/input` (its address guard on every redirect
 * hop, its timeouts and size caps): the live stream itself, and for an HLS upstream its playlists,
 * segments, keys and init segments, each with the stream's own request headers. A session's
 * requests go one at a time (`serial`): an HLS channel is one connection to its provider however
 * many viewers it has, as a provider with a connection limit counts them.
 */
import { isMarqueeError, MarqueeError } from '../errors.js';
import {
  decodeText,
  type LiveSource,
  openLive,
  openSource,
  readSourceHead,
  redactLocation,
  type SourceOptions,
} from '../sources/input/index.js';
import type { UpstreamRequest } from './headers.js';

/** Where relay upstreams may go, and how they are asked. */
export interface UpstreamPolicy {
  /** `sources.allowPrivate`: may streams reach loopback and private addresses (true, or these URLs)? */
  readonly allowPrivate?: boolean | readonly string[];
  /** Sent when the playlist names no User-Agent. */
  readonly userAgent?: string;
  readonly connectTimeoutMs?: number;
}

/** The User-Agent the relay sends when a playlist names none. */
export const RELAY_USER_AGENT = 'Marquee relay (Stremio add-on server)';

/** Sizes read at most: a playlist, a key, an init segment, a media segment. */
export const FETCH_LIMITS = {
  playlistBytes: 2 * 1024 * 1024,
  keyBytes: 4 * 1024,
  mapBytes: 8 * 1024 * 1024,
  segmentBytes: 64 * 1024 * 1024,
} as const;

export function sourceOptions(policy: UpstreamPolicy, request: UpstreamRequest): SourceOptions {
  const allow = policy.allowPrivate;
  return {
    ...(allow === true ? { allowPrivateAddresses: true } : {}),
    ...(Array.isArray(allow) ? { privateUrls: allow as readonly string[] } : {}),
    // A stream URL names no file of the operator's disk.
    allowFiles: false,
    userAgent: request.userAgent ?? policy.userAgent ?? RELAY_USER_AGENT,
    headers: request.headers,
    connectTimeoutMs: policy.connectTimeoutMs ?? 10_000,
    retries: 1,
    retryDelayMs: 250,
  };
}

/** Open the live stream at `url` with the stream's headers. */
export function openUpstream(
  policy: UpstreamPolicy,
  request: UpstreamRequest,
  url: string,
  stallMs: number,
  signal?: AbortSignal,
): Promise<LiveSource> {
  const options = sourceOptions(policy, request);
  return openLive(url, {
    ...options,
    stallTimeoutMs: stallMs,
    ...(signal ? { signal } : {}),
  });
}

/** A playlist's text and the URL it came from (after redirects). */
export async function fetchPlaylist(
  policy: UpstreamPolicy,
  request: UpstreamRequest,
  url: string,
  timeoutMs: number,
): Promise<{ text: string; url: string }> {
  // Read as a head: the answer's URL after redirects comes back unredacted, to resolve its URIs against.
  const result = await readSourceHead(url, {
    ...sourceOptions(policy, request),
    headBytes: FETCH_LIMITS.playlistBytes,
    timeoutMs,
  });
  if (result.notModified) throw new MarqueeError('SOURCE_UNREADABLE', 'answered 304 to a plain request');
  if (!result.complete) {
    throw new MarqueeError(
      'SOURCE_TOO_LARGE',
      `${redactLocation(url)}: a playlist of more than ${FETCH_LIMITS.playlistBytes} bytes`,
    );
  }
  return { text: decodeText(result.head), url: result.url };
}

/** The bytes at `url` (a byte range of it when given), at most `maxBytes`. */
export async function fetchBytes(
  policy: UpstreamPolicy,
  request: UpstreamRequest,
  url: string,
  options: { maxBytes: number; timeoutMs: number; range?: { offset: number; length: number } },
): Promise<{ bytes: Buffer; contentType?: string }> {
  const base = sourceOptions(policy, request);
  const headers = options.range
    ? { ...base.headers, range: `bytes=${options.range.offset}-${options.range.offset + options.range.length - 1}` }
    : base.headers;
  const source = await openSource(url, {
    ...base,
    ...(headers ? { headers } : {}),
    maxBytes: options.maxBytes,
    maxDecompressedBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
  });
  if (source.notModified) throw new MarqueeError('SOURCE_UNREADABLE', 'answered 304 to a plain request');
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  // A server that ignores Range sends the whole file: the range is cut from it.
  const ranged =
    options.range && bytes.length > options.range.length
      ? bytes.subarray(options.range.offset, options.range.offset + options.range.length)
      : bytes;
  return { bytes: ranged, ...(source.metadata.contentType ? { contentType: source.metadata.contentType } : {}) };
}

/** Runs jobs one at a time, in order. */
export function serial(): <T>(job: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (job) => {
    const run = last.then(job, job);
    last = run.catch(() => {});
    return run;
  };
}

/** A short reason for logs and health, without URLs (the input layer names them redacted; still cut). */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = isMarqueeError(error) ? error.code : undefined;
  const cut = message.replace(/\bhttps?:\/\/\S+?(?=[:\s]|$)/gi, '').replace(/^[\s:]+/, '');
  return (code === 'SOURCE_TIMEOUT' && !/stall|no bytes/.test(cut) ? `timeout: ${cut}` : cut).slice(0, 200);
}
