import type { AnyAddon } from '../addon/create-addon.js';
import type { CacheHints } from '../protocol/responses.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { ResponseCacheOptions } from './response-cache.js';

/** A request as every runtime can give it: the core never sees Node's or the Fetch API's objects. */
export interface CoreRequest {
  readonly method: string;
  /** Path and query as received (`/catalog/movie/top.json?x=1`), still percent-encoded. */
  readonly url: string;
  /** A request header by lower-case name. */
  readonly header: (name: string) => string | undefined;
  /** The scheme the client used, when the adapter knows it. */
  readonly protocol?: 'http' | 'https';
  /** The client's address (for rate limiting), when the adapter knows it. */
  readonly remoteAddress?: string;
  /** Read the body, refusing more than `maxBytes` (only POST /configure reads one). */
  readonly readBody?: (maxBytes: number) => Promise<Uint8Array>;
  readonly signal?: AbortSignal;
}

/**
 * A body that arrives over time (a live stream, a relayed segment): its chunks in order. Adapters
 * pull the next chunk only once the client took the last one (backpressure), and end the
 * iteration (`return()`) when the client goes away.
 */
export type BodyStream = AsyncIterable<Uint8Array>;

/** A handler mounted under a first path segment of its own (`/relay/…`): `path` is what follows it. */
export type MountedHandler = (request: CoreRequest, path: string) => CoreResponse | Promise<CoreResponse>;

export interface CoreResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | string;
  /** When set, the body is this stream (and `body` is empty). Every adapter writes it. */
  readonly stream?: BodyStream;
  /**
   * When set, `body` is pooled memory: an adapter calls this once the body has been handed to the
   * OS, and never before (a pooled body is written into again). Adapters that cannot tell when
   * that is (a fetch `Response` may be read later) simply never call it.
   */
  readonly release?: () => void;
}

export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
  /** What is worth a line only when looking closely (a client that hung up mid-request). */
  debug?(record: Record<string, unknown>): void;
  /** `false`: the logger drops per-request lines, so the server does not build them. */
  readonly requests?: boolean;
}

export interface ServerOptions {
  /** Mount prefix, e.g. `/tv`: the add-on answers `/tv/manifest.json`. */
  readonly basePath?: string;
  /** The public base URL (scheme, host, prefix) for links on pages; default: from the Host header. */
  readonly publicUrl?: string;
  /**
   * Behind one reverse proxy: read the scheme and host from X-Forwarded-Proto / X-Forwarded-Host,
   * and rate-limit by the last X-Forwarded-For entry (the address the proxy appended).
   */
  readonly trustProxy?: boolean;
  readonly logger?: Logger;
  /** gzip/brotli for clients that accept them. Default true. */
  readonly compression?: boolean;
  /** Cache of serialized answers; `false` turns it off. */
  readonly responseCache?: ResponseCacheOptions | false;
  /** Cache hints of answers whose handler gave none. Default `{ cacheMaxAge: 300 }`. */
  readonly defaultCache?: CacheHints;
  /** Per-address request limit; off when absent (the default, for local use). */
  readonly rateLimit?: RateLimitOptions;
  /**
   * Marquee's HTTPS guide (docs/https.md) as Markdown: served as a page at `/https` (under
   * `basePath`), which the install section links for a plain-HTTP address. Without it there is no
   * such page, and the install section names the guide in words. `marquee serve` gives it.
   */
  readonly httpsGuide?: string;
  /**
   * Other handlers on the add-on's origin, each under a first path segment of its own (under
   * `basePath`): `{ relay: handler }` answers `/relay/…`. They get every method but OPTIONS (CORS
   * preflights are answered here) and are not counted by the per-address rate limit: they keep
   * limits of their own.
   */
  readonly mounts?: Readonly<Record<string, MountedHandler>>;
  /** Lines the front page shows under the description (plain text, escaped): what this server does for playback. */
  readonly frontNotes?: readonly string[];
}

/** The add-on to serve: fixed, or looked up per request so a backend can swap it after an import. */
export type AddonSource = AnyAddon | (() => AnyAddon);

/**
 * A fresh cached answer from the request's method, URL and the two headers that choose between a
 * cached page's answers, or undefined when the request needs the handler. An adapter may ask it
 * first, before building a `CoreRequest`.
 */
export type CachedAnswer = (
  method: string,
  url: string,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
) => CoreResponse | undefined;

/** Cached answers come back synchronously (no promise on the hot path); others as a promise. */
export type RequestHandler = ((request: CoreRequest) => CoreResponse | Promise<CoreResponse>) & {
  /**
   * Set by `createRequestHandler` when a cache hit needs nothing but its answer (no request log,
   * no rate limit): the Node adapter then answers cached pages without building a request view.
   */
  readonly cached?: CachedAnswer;
};
