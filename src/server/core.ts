import type { AnyAddon } from '../addon/create-addon.js';
import { isMarqueeError } from '../errors.js';
import { parseAddonPath } from '../protocol/path.js';
import { DEFAULT_CACHE } from './cache-control.js';
import { handleConfigure } from './configure-route.js';
import { errorResponse, STDERR_ERRORS } from './errors.js';
import { frontPageData } from './front.js';
import { type GuideContent, guideContent, guideResponse, HTTPS_GUIDE_PATH } from './guide-page.js';
import { landingPage } from './landing.js';
import { checkPageUrls, pageHeaders, pageNonce } from './page.js';
import type { Platform } from './platform.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress, localPath, redactPath, requestBaseUrl } from './request-path.js';
import {
  BASE_HEADERS,
  htmlResponse,
  jsonEntry,
  notFoundResponse,
  sendCachedEntry,
  sendEntry,
  textResponse,
} from './respond.js';
import { ResponseCache } from './response-cache.js';
import { crossSiteOrigin, crossSiteResponse } from './same-site.js';
import { type Flight, type FlightOutcome, newFlight } from './single-flight.js';
import type {
  AddonSource,
  CachedAnswer,
  CoreRequest,
  CoreResponse,
  MountedHandler,
  RequestHandler,
  ServerOptions,
} from './types.js';

const ALLOWED = 'GET, HEAD, OPTIONS';

/**
 * The runtime-neutral HTTP core: manifest, resources (with and without the config segment),
 * landing and configure pages, CORS, cache headers, compression, 404/500 mapping and logging.
 * Adapters (node.ts, fetch.ts) only translate requests and responses. It uses Web APIs only;
 * `platform` brings what differs by runtime (bodies, compression, ETags): each entry's
 * `createRequestHandler` names its own (Node's in node-handler.ts, every other runtime's in
 * src/fetch/).
 *
 * @example const handle = createCoreHandler(addon, {}, webPlatform()); const res = await handle({ method: 'GET', url: '/manifest.json', header: () => undefined });
 */
export function createCoreHandler(source: AddonSource, options: ServerOptions, platform: Platform): RequestHandler {
  const getAddon = typeof source === 'function' ? source : () => source;
  // The landing and configure pages link the manifest's logo: an add-on whose URL fields are not
  // http(s) (a `javascript:` logo) is refused, naming the field: now when it is given, else (an
  // add-on looked up per request may not exist yet) by each page, which then answers 500.
  if (typeof source !== 'function') checkPageUrls(source.manifest);
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const compression = options.compression ?? true;
  const cache = options.responseCache === false ? undefined : new ResponseCache(options.responseCache);
  const defaultCache = options.defaultCache ?? DEFAULT_CACHE;
  // Without a logger a failing handler still leaves a trace: its stack on stderr, nothing else.
  const logger = options.logger ?? STDERR_ERRORS;
  const limiter =
    options.rateLimit && options.rateLimit.perMinute > 0 ? createRateLimiter(options.rateLimit) : undefined;
  const idPrefix = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  /**
   * Answers being computed, by data version and path: a request of a path already being answered
   * waits for that answer instead of computing it again (single flight). Without it, 300 requests
   * of one uncached 1.3 MB guide page each rendered and compressed it, and none was answered
   * within seconds. The waiting requests are answered from the leader's answer itself, compressed
   * once for all of them: also when it is not kept in the response cache (too large for it, not
   * cacheable, or no cache at all, as in hosted mode's pending answers).
   */
  const flights = new Map<string, Flight>();
  /** The HTTPS guide, rendered at its first request (a server that is never asked for it never renders it). */
  let guide: GuideContent | undefined;
  const httpsGuide = options.httpsGuide;
  const guideUrl = (base: string) => (httpsGuide === undefined ? undefined : `${base}${HTTPS_GUIDE_PATH}`);

  const baseUrl = (request: CoreRequest) => requestBaseUrl(request, options);

  const mounts = options.mounts ?? {};
  const hasMounts = Object.keys(mounts).length > 0;
  /** The mounted handler of `path` and the path after its segment, when it is under one. */
  const mountOf = (path: string): [MountedHandler, string] | undefined => {
    const slash = path.indexOf('/', 1);
    const name = path.slice(1, slash === -1 ? undefined : slash);
    const handler = Object.hasOwn(mounts, name) ? mounts[name] : undefined;
    return handler === undefined ? undefined : [handler, slash === -1 ? '' : path.slice(slash)];
  };

  async function route(request: CoreRequest, requestId: string): Promise<CoreResponse> {
    const { method } = request;
    if (hasMounts && method !== 'OPTIONS') {
      const local = localPath(request.url, basePath);
      const mount = local === undefined ? undefined : mountOf(local);
      if (mount) return mount[0](request, mount[1]);
    }
    if (limiter) {
      const wait = limiter.take(clientAddress(request, options.trustProxy));
      if (wait > 0) return textResponse(429, 'Too many requests', { 'retry-after': String(wait) });
    }
    if (method === 'OPTIONS') {
      return {
        status: 204,
        headers: {
          ...BASE_HEADERS,
          'access-control-allow-methods': ALLOWED,
          'access-control-allow-headers': request.header('access-control-request-headers') ?? '*',
          'access-control-max-age': '86400',
          'content-length': '0',
        },
        body: '',
      };
    }
    const path = localPath(request.url, basePath);
    if (path === undefined) return notFoundResponse();
    const isRead = method === 'GET' || method === 'HEAD';
    const configure = /^\/(?:([^/]+)\/)?configure\/?$/.exec(path);
    if (method === 'POST' && configure) {
      const foreign = crossSiteOrigin(request, options);
      if (foreign !== undefined) return crossSiteResponse(foreign, requestId);
      const addon = getAddon();
      checkPageUrls(addon.manifest);
      const base = baseUrl(request);
      return handleConfigure(addon, request, configure[1], base, 'POST', guideUrl(base), options.frontNotes);
    }
    if (!isRead) return textResponse(405, 'Method not allowed', { allow: ALLOWED });

    const addon = getAddon();
    const now = Date.now();
    const version = addon.dataVersion(now);
    /** The cached answer of this path, when there is one. */
    const cached = (at: number) => {
      const hit = cache?.get(path, version, at);
      return hit && cache
        ? sendEntry(
            hit,
            request.header('accept-encoding'),
            request.header('if-none-match'),
            compression,
            { cache, key: path },
            platform,
          )
        : undefined;
    };
    const hit = cached(now);
    if (hit) return hit;
    const guidePath = httpsGuide !== undefined && (path === HTTPS_GUIDE_PATH || path === `${HTTPS_GUIDE_PATH}/`);
    if (path === '/' || configure || guidePath) checkPageUrls(addon.manifest);
    if (path === '/') return await landing(addon, request);
    if (configure) {
      const base = baseUrl(request);
      return handleConfigure(addon, request, configure[1], base, 'GET', guideUrl(base), options.frontNotes);
    }
    if (guidePath) {
      guide ??= guideContent(httpsGuide);
      return guideResponse(addon.manifest, guide, baseUrl(request));
    }

    const parsed = parseAddonPath(path);
    if (!parsed) return notFoundResponse();
    // Handlers may put the add-on's own address in an answer (a relay link): answers computed for
    // one address are not handed to a request of another.
    const origin = baseUrl(request);
    const flightKey = `${version}\u0000${path}\u0000${options.publicUrl ? '' : origin}`;
    for (let leader = flights.get(flightKey); leader; leader = flights.get(flightKey)) {
      leader.followers++;
      const outcome = await leader.done;
      if (outcome === 'failed') continue; // the first waiting one computes it, the others wait for that one
      if (outcome === 'not-found') return notFoundResponse();
      return sendEntry(
        outcome.entry,
        request.header('accept-encoding'),
        request.header('if-none-match'),
        compression,
        outcome.keptAs !== undefined && cache ? { cache, key: outcome.keptAs } : undefined,
        platform,
      );
    }
    let flight: Flight | undefined = newFlight();
    flights.set(flightKey, flight);
    const land = (outcome: FlightOutcome) => {
      if (flight === undefined) return;
      flights.delete(flightKey);
      flight.land(outcome);
      flight = undefined;
    };
    try {
      const signal = request.signal;
      const answer =
        parsed.kind === 'manifest'
          ? await addon.manifestFor(parsed.config)
          : await addon.handle({
              ...parsed.path,
              rawJson: true,
              origin,
              ...(parsed.config !== undefined ? { config: parsed.config } : {}),
              ...(signal ? { signal } : {}),
            });
      // The version now, asked of the data (not a reading held for a while): an import that
      // committed before or while this answer was built is seen by every request after this one,
      // so no cached answer of the data before it is served once this answer, which may hold the
      // new data, is; and such an answer is not kept under the old version.
      const current = cache === undefined ? version : addon.dataVersion();
      if (answer.status === 404) {
        logger?.info({ requestId, notFound: answer.reason });
        land('not-found');
        return notFoundResponse();
      }
      const hints = Object.keys(answer.cache).length > 0 ? answer.cache : defaultCache;
      const ttl = Math.min((hints.cacheMaxAge ?? 0) * 1000, cache?.maxTtlMs ?? 0);
      const built = jsonEntry(answer.body, hints, version, now + ttl, platform);
      const { entry } = built;
      let release = built.release;
      const followers = flight?.followers ?? 0;
      // Requests that waited for this answer are the second request of its path that admits it.
      const kept = cache !== undefined && current === version && ttl > 0 && (cache.admit(path, now) || followers > 0);
      if (kept) cache.set(path, entry);
      if (release !== undefined && !kept && followers > 0) {
        // The waiting requests write this body after this one gave it back: they get a copy of their own.
        (entry.bodies as { identity?: Uint8Array }).identity = platform.bytes.copy(entry.bodies.identity!);
        release();
        release = undefined;
      }
      // The waiting requests go on now, and share the compression below (sendEntry compresses an entry once at a time).
      land({ entry, ...(kept ? { keptAs: path } : {}) });
      return await sendPrepared(request, entry, release, kept ? path : undefined);
    } finally {
      land('failed');
    }
  }

  /** An answer just computed, in the encoding the request accepts; a pooled body that is not cached goes back once written. */
  async function sendPrepared(
    request: CoreRequest,
    entry: ReturnType<typeof jsonEntry>['entry'],
    release: (() => void) | undefined,
    keptAs: string | undefined,
  ): Promise<CoreResponse> {
    const kept = keptAs !== undefined && cache !== undefined;
    const response = await sendEntry(
      entry,
      request.header('accept-encoding'),
      request.header('if-none-match'),
      compression,
      kept ? { cache, key: keptAs } : undefined,
      platform,
    );
    // A pooled body that is not cached goes back once written out; at once when it is not the answer (compressed, 304).
    if (release === undefined || kept) return response;
    if (response.body !== entry.bodies.identity) {
      release();
      return response;
    }
    return { ...response, release };
  }

  async function landing(addon: AnyAddon, request: CoreRequest): Promise<CoreResponse> {
    const base = baseUrl(request);
    const manifest = addon.manifest;
    if (manifest.behaviorHints?.configurable && (manifest.config?.length ?? 0) > 0) {
      return {
        status: 302,
        headers: { ...BASE_HEADERS, location: `${base}/configure`, 'cache-control': 'no-store', 'content-length': '0' },
        body: '',
      };
    }
    const nonce = pageNonce();
    const data = await frontPageData(addon);
    // Built from the data as it is now: later cached answers must be of that data too (see route).
    if (cache) addon.dataVersion();
    return htmlResponse(
      200,
      landingPage(manifest, base, nonce, data, guideUrl(base), options.frontNotes),
      pageHeaders(nonce),
    );
  }

  /**
   * A fresh cached answer that needs no work, answered without a promise: the hot path. None
   * without a cache, or with a rate limit (every request counts, hit or not).
   */
  const cachedAnswer: CachedAnswer | undefined =
    cache && !limiter
      ? (method, url, acceptEncoding, ifNoneMatch) => {
          if (method !== 'GET' && method !== 'HEAD') return undefined;
          const path = localPath(url, basePath);
          if (path === undefined) return undefined;
          const now = Date.now();
          const hit = cache.get(path, getAddon().dataVersion(now), now);
          return hit && sendCachedEntry(hit, acceptEncoding, ifNoneMatch, compression, platform);
        }
      : undefined;
  const fromCache = (request: CoreRequest): CoreResponse | undefined =>
    cachedAnswer?.(request.method, request.url, request.header('accept-encoding'), request.header('if-none-match'));

  function logRequest(request: CoreRequest, requestId: string, status: number, started: number): void {
    if (!logger || logger.requests === false) return;
    logger.info({
      requestId,
      method: request.method,
      path: redactPath(request.url, basePath),
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
    });
  }

  const nextId = () => `${idPrefix}-${(++counter).toString(36)}`;
  const logsRequests = logger.requests !== false;

  function handle(request: CoreRequest): CoreResponse | Promise<CoreResponse> {
    // The clock is read only for the log line's duration.
    const started = logsRequests ? performance.now() : 0;
    const cached = fromCache(request);
    if (cached) {
      // A cache hit needs its request id only for its log line.
      if (logsRequests) logRequest(request, nextId(), cached.status, started);
      return cached;
    }
    return answer(request, nextId(), started);
  }
  // A hit with no log line to write and no limit to count is its answer alone.
  return cachedAnswer && !logsRequests ? Object.assign(handle, { cached: cachedAnswer }) : handle;

  async function answer(request: CoreRequest, requestId: string, started: number): Promise<CoreResponse> {
    let response: CoreResponse;
    try {
      response = await route(request, requestId);
    } catch (error) {
      response = errorResponse(error, requestId);
      if ((error as { clientClosed?: boolean } | null)?.clientClosed === true) {
        logger?.debug?.({
          requestId,
          method: request.method,
          path: redactPath(request.url, basePath),
          msg: (error as Error).message,
        });
      } else if (response.status >= 500) {
        logger?.error({
          requestId,
          method: request.method,
          path: redactPath(request.url, basePath),
          code: isMarqueeError(error) ? error.code : 'HANDLER_FAILED',
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
      }
    }
    logRequest(request, requestId, response.status, started);
    return response;
  }
}
