import { createHash } from 'node:crypto';
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

/** Build a cache entry for a JSON answer: serialized once, compressed lazily per encoding. */
export function jsonEntry(body: unknown, hints: CacheHints, version: string | number, expires: number): CachedResponse {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `W/"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  return {
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
  if (ifNoneMatch?.split(',').some((t) => t.trim() === entry.etag)) {
    return { status: 304, headers: entry.headers, body: '' };
  }
  const identity = entry.bodies.identity!;
  let encoding: Encoding =
    compression && identity.byteLength >= COMPRESS_MIN_BYTES ? negotiateEncoding(acceptEncoding) : 'identity';
  let body = entry.bodies[encoding];
  if (!body && encoding !== 'identity') {
    body = await compress(identity, encoding);
    if (store) store.cache.addBody(store.key, entry, encoding, body);
  }
  if (!body) {
    encoding = 'identity';
    body = identity;
  }
  const headers: Record<string, string> = { ...entry.headers, 'content-length': String(body.byteLength) };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return { status: 200, headers, body };
}
