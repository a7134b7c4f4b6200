import { utf8Length } from '../addon/bytes.js';
import { serializeLease } from '../addon/raw-list.js';
import type { CacheHints } from '../protocol/responses.js';
import { cacheControl, ERROR_CACHE_CONTROL } from './cache-control.js';
import { COMPRESS_MIN_BYTES, type Compressed, type Encoding } from './encoding.js';
import type { Platform } from './platform.js';
import type { CachedResponse, PreparedAnswers, ResponseCache } from './response-cache.js';
import type { CoreResponse } from './types.js';
import { webPlatform } from './web-platform.js';

/** The platform of callers that name none: Web APIs (the core always names one). */
const WEB = webPlatform();

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
      'content-length': String(utf8Length(text)),
      ...extra,
    },
    body: text,
  };
}

export const notFoundResponse = (): CoreResponse => textResponse(404, 'Not found');

/** A JSON error answer, never cached; `requestId` (when there is one) ties it to the log line. */
export function jsonError(status: number, code: string, message: string, requestId?: string): CoreResponse {
  const body = JSON.stringify({ error: { code, message, requestId } });
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': ERROR_CACHE_CONTROL,
      'content-length': String(utf8Length(body)),
    },
    body,
  };
}

export function htmlResponse(status: number, page: string, headers: Record<string, string>): CoreResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, ...headers, 'content-length': String(utf8Length(page)) },
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
  platform: Platform = WEB,
): { entry: CachedResponse; release?: () => void } {
  const { bytes, release } = serializeLease(body, platform.bytes);
  const etag = platform.etag(bytes);
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
    bodies: { identity: bytes, gzip: undefined, br: undefined },
    answers: { identity: undefined, gzip: undefined, br: undefined },
  };
  return release ? { entry, release } : { entry };
}

/** The encoding to answer with, before knowing whether that body is cached yet. */
function chooseEncoding(
  entry: CachedResponse,
  acceptEncoding: string | undefined,
  compression: boolean,
  platform: Platform,
): Encoding {
  return compression && entry.bodies.identity!.byteLength >= COMPRESS_MIN_BYTES
    ? platform.negotiate(acceptEncoding)
    : 'identity';
}

function notModified(entry: CachedResponse, ifNoneMatch: string): boolean {
  return ifNoneMatch.split(',').some((t) => t.trim() === entry.etag);
}

/**
 * A prepared answer's headers also as a flat `[name, value, ...]` list, under this symbol on the
 * answer: node:http's `writeHead` takes such a list without walking an object's keys
 * (about 1% of a cached page's answer, side by side; bench/README.md).
 */
export const FLAT_HEADERS: unique symbol = Symbol('marquee.flatHeaders');

/** The slot of `encoding` (a field read, not a keyed load: the hot path). */
function slotOf(answers: PreparedAnswers, encoding: Encoding): CoreResponse | undefined {
  return encoding === 'identity' ? answers.identity : encoding === 'br' ? answers.br : answers.gzip;
}

/**
 * The 200 answer of an entry in one encoding, built once: a cached page is then answered with no
 * object built per request (spreading its headers per request was a tenth of the hot path).
 * Frozen, since every request of that page shares it; its flat header list is for node:http.
 */
function withBody(entry: CachedResponse, encoding: Encoding, body: Uint8Array): CoreResponse {
  const answers = entry.answers;
  const ready = answers && slotOf(answers, encoding);
  if (ready !== undefined && ready.body === body) return ready;
  const headers: Record<string, string> = { ...entry.headers, 'content-length': String(body.byteLength) };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  const answer: CoreResponse = { status: 200, headers: Object.freeze(headers), body };
  // Not enumerable: a copy of the answer (a wrapper changing a header) does not carry a stale list,
  // and the headers stay a plain record (undici's `Headers` throws on a symbol key among them).
  Object.defineProperty(answer, FLAT_HEADERS, { value: Object.entries(headers).flat() });
  Object.freeze(answer);
  if (answers) answers[encoding] = answer;
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
  platform: Platform = WEB,
): CoreResponse | undefined {
  if (ifNoneMatch !== undefined && notModified(entry, ifNoneMatch)) {
    return { status: 304, headers: entry.headers, body: '' };
  }
  const encoding = chooseEncoding(entry, acceptEncoding, compression, platform);
  const ready = entry.answers && slotOf(entry.answers, encoding);
  if (ready !== undefined) return ready;
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
  platform: Platform = WEB,
): Promise<CoreResponse> {
  const ready = sendCachedEntry(entry, acceptEncoding, ifNoneMatch, compression, platform);
  if (ready) return ready;
  const encoding = chooseEncoding(entry, acceptEncoding, compression, platform) as Compressed;
  const body = await compressOnce(entry, encoding, platform);
  if (store) store.cache.addBody(store.key, entry, encoding, body);
  return withBody(entry, encoding, body);
}

/** Compressions of an entry under way: requests that need the same one at once wait for it. */
const compressing = new WeakMap<CachedResponse, Map<Encoding, Promise<Uint8Array>>>();

/**
 * `entry`'s body in `encoding`, compressed once however many requests ask for it at the same
 * time (a 1.3 MB guide page asked 300 times at once was brotli-compressed 300 times, and no
 * answer came for seconds).
 */
function compressOnce(entry: CachedResponse, encoding: Compressed, platform: Platform): Promise<Uint8Array> {
  let pending = compressing.get(entry);
  const running = pending?.get(encoding);
  if (running) return running;
  const body = platform.compress(entry.bodies.identity!, encoding);
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
