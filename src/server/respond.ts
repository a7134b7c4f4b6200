import { createHash } from 'node:crypto';
import { serializeBodyLease } from '../addon/index.js';
import type { CacheHints } from '../protocol/responses.js';
import { cacheControl, ERROR_CACHE_CONTROL } from './cache-control.js';
import { COMPRESS_MIN_BYTES, compress, type Encoding, negotiateEncoding } from './compress.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';
import type { CoreResponse } from './types.js';

/** Headers every answer carries: the web client runs in a browser on another origin. */
export const BASE_HEADERS = {
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
} as const;

export function textResponse(status: number, text: string, extra: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': ERROR_CACHE_CONTROL,
      'content-length': String(Buffer.byteLength(text)),
      ...extra,
    },
    body: text,
  };
}

export const notFoundResponse = (): CoreResponse => textResponse(404, 'Not found');

export function jsonError(status: number, code: string, message: string, requestId: string): CoreResponse {
  const body = JSON.stringify({ error: { code, message, requestId } });
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': ERROR_CACHE_CONTROL,
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  };
}

export function htmlResponse(status: number, page: string, headers: Record<string, string>): CoreResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, ...headers, 'content-length': String(Buffer.byteLength(page)) },
    body: page,
  };
}

/**
 * Build a cache entry for a JSON answer: serialized once, compressed lazily per encoding. When
 * its identity body is pooled memory, `release` gives it back (never for an entry that is cached).
 */
export function jsonEntry(
  body: Record<string, unknown>,
  hints: CacheHints,
  version: string | number,
  expires: number,
): { entry: CachedResponse; release?: () => void } {
  const { bytes, release } = serializeBodyLease(body);
  const etag = `W/"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  const entry: CachedResponse = {
    version,
    expires,
    etag,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': cacheControl(hints),
      vary: 'Accept-Encoding',
      etag,
    },
    bodies: { identity: bytes },
  };
  return release ? { entry, release } : { entry };
}

/** The encoding to answer with, before knowing whether that body is cached yet. */
function chooseEncoding(entry: CachedResponse, acceptEncoding: string | undefined, compression: boolean): Encoding {
  return compression && entry.bodies.identity!.byteLength >= COMPRESS_MIN_BYTES
    ? negotiateEncoding(acceptEncoding)
    : 'identity';
}

function notModified(entry: CachedResponse, ifNoneMatch: string | undefined): boolean {
  return ifNoneMatch?.split(',').some((t) => t.trim() === entry.etag) === true;
}

/**
 * The 200 answers of an entry, one per encoding, built once: a cached page is then answered with
 * no object built per request (spreading its headers per request was a tenth of the hot path).
 * Frozen, since every request of that page shares it.
 */
const answers = new WeakMap<CachedResponse, Partial<Record<Encoding, CoreResponse>>>();

function withBody(entry: CachedResponse, encoding: Encoding, body: Buffer): CoreResponse {
  let built = answers.get(entry);
  const ready = built?.[encoding];
  if (ready !== undefined && ready.body === body) return ready;
  const headers: Record<string, string> = { ...entry.headers, 'content-length': String(body.byteLength) };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  const answer: CoreResponse = Object.freeze({ status: 200, headers: Object.freeze(headers), body });
  if (built === undefined) {
    built = {};
    answers.set(entry, built);
  }
  built[encoding] = answer;
  return answer;
}

/**
 * The answer from an entry when it needs no work (the body in the accepted encoding is already
 * there, or a 304): the hot path of cached pages, with no promise in between.
 */
export function sendCachedEntry(
  entry: CachedResponse,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  compression: boolean,
): CoreResponse | undefined {
  if (notModified(entry, ifNoneMatch)) return { status: 304, headers: entry.headers, body: '' };
  const encoding = chooseEncoding(entry, acceptEncoding, compression);
  const body = entry.bodies[encoding];
  return body ? withBody(entry, encoding, body) : undefined;
}

/**
 * Answer from an entry in the encoding the client accepts, compressing (once) when the body is
 * big enough; a matching If-None-Match gets 304.
 */
export async function sendEntry(
  entry: CachedResponse,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  compression: boolean,
  store?: { cache: ResponseCache; key: string },
): Promise<CoreResponse> {
  const ready = sendCachedEntry(entry, acceptEncoding, ifNoneMatch, compression);
  if (ready) return ready;
  const encoding = chooseEncoding(entry, acceptEncoding, compression) as Exclude<Encoding, 'identity'>;
  const body = await compressOnce(entry, encoding);
  if (store) store.cache.addBody(store.key, entry, encoding, body);
  return withBody(entry, encoding, body);
}

/** Compressions of an entry under way: requests that need the same one at once wait for it. */
const compressing = new WeakMap<CachedResponse, Map<Encoding, Promise<Buffer>>>();

/**
 * `entry`'s body in `encoding`, compressed once however many requests ask for it at the same
 * time (a 1.3 MB guide page asked 300 times at once was brotli-compressed 300 times, and no
 * answer came for seconds).
 */
function compressOnce(entry: CachedResponse, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> {
  let pending = compressing.get(entry);
  const running = pending?.get(encoding);
  if (running) return running;
  const body = compress(entry.bodies.identity!, encoding);
  if (pending === undefined) {
    pending = new Map();
    compressing.set(entry, pending);
  }
  pending.set(encoding, body);
  const done = () => {
    pending.delete(encoding);
    if (pending.size === 0) compressing.delete(entry);
  };
  body.then(done, done);
  return body;
}
