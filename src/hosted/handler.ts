/**
 * The HTTP face of hosted mode. Paths without a config segment (the landing page, /configure,
 * /manifest.json) are the public add-on: configurable, configuration required. A path with a
 * config segment is a user's: the token decrypts to their sources (else 404), which name their
 * source set; its add-on answers, once its data is there. A set without data starts its import
 * and the request waits for it up to `waitMs`; past that it gets an empty answer that the
 * client asks again for soon (`max-age=30`, no stale directives).
 */
import { join } from 'node:path';
import { type Addon, composeAddon } from '../addon/index.js';
import { createLiveTvPart } from '../livetv/index.js';
import { parseAddonPath } from '../protocol/index.js';
import {
  type CoreRequest,
  type CoreResponse,
  clientAddress,
  createRateLimiter,
  createRequestHandler,
  crossSiteOrigin,
  crossSiteResponse,
  localPath,
  type MountedHandler,
  type RequestHandler,
  redactPath,
  type ServerOptions,
} from '../server/index.js';
import { openStore } from '../store/index.js';
import { handleHostedConfigure } from './configure.js';
import { createPrivateFile } from './files.js';
import { HOSTED_FIELDS, readHostedSources } from './sources.js';
import type { HostedService } from './types.js';

export interface HostedHandlerOptions extends ServerOptions {
  /** How long a request for a set without data waits for its import. Default 8 s. */
  readonly waitMs?: number;
  /** How long `POST /configure` (JSON) waits for the first import before answering. Default 10 min. */
  readonly configureWaitMs?: number;
  /** The relay (`hosted.relay`), answering `/relay/…`: its links name a set and a stream, signed. */
  readonly relay?: MountedHandler;
}

export interface HostedHandler {
  readonly handle: RequestHandler;
  /** The public (unconfigured) add-on, for the start-up lines and warm-up. */
  readonly addon: Addon;
  close(): void;
}

/** Configure answers that refuse the request, by the reason they are counted under. */
const REFUSED: Readonly<Record<number, string>> = {
  400: 'invalid',
  404: 'not-ours',
  413: 'invalid',
  429: 'rate-limit',
  503: 'busy',
};

/** The answer of a set still importing: asked again soon, never kept stale. */
export const PENDING_CACHE_CONTROL = 'max-age=30';

/** @example const { handle } = createHostedHandler(service, { waitMs: 8000 }) */
export function createHostedHandler(service: HostedService, options: HostedHandlerOptions = {}): HostedHandler {
  const waitMs = options.waitMs ?? 8_000;
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  // The public add-on lists the live-TV catalog of an empty store: what every user's add-on has.
  createPrivateFile(join(service.dir, 'empty.db'));
  const empty = openStore(join(service.dir, 'empty.db'));
  const make = (required: boolean) =>
    composeAddon(
      {
        ...service.manifest,
        config: HOSTED_FIELDS,
        behaviorHints: { configurable: true, ...(required ? { configurationRequired: true } : {}) },
      },
      [createLiveTvPart(empty)],
      { configCodec: service.codec, dataVersion: empty.dataVersion },
    );
  const publicAddon = make(true);
  const pendingAddon = make(false);
  // The rate limit is applied here, once per request, not again by the handlers behind.
  const { rateLimit: _limit, waitMs: _wait, configureWaitMs: _configureWait, relay: _relay, ...inner } = options;
  const publicHandler = createRequestHandler(publicAddon, inner);
  const pendingHandler = createRequestHandler(pendingAddon, { ...inner, responseCache: false });
  const limiter =
    options.rateLimit && options.rateLimit.perMinute > 0 ? createRateLimiter(options.rateLimit) : undefined;

  async function pending(request: CoreRequest): Promise<CoreResponse> {
    const response = await pendingHandler(request);
    if (response.status >= 400) return response;
    return { ...response, headers: { ...response.headers, 'cache-control': PENDING_CACHE_CONTROL } };
  }

  async function route(request: CoreRequest): Promise<CoreResponse> {
    // The relay keeps limits of its own (viewers and upstreams per source set): a player asks
    // every second or two, which a per-address request limit is not made for.
    if (options.relay && request.method !== 'OPTIONS') {
      const local = localPath(request.url, basePath);
      if (local?.startsWith('/relay/')) return options.relay(request, local.slice('/relay'.length));
    }
    if (limiter) {
      const wait = limiter.take(clientAddress(request, options.trustProxy));
      if (wait > 0) {
        service.refused('rate-limit');
        return text(429, 'Too many requests', { 'retry-after': String(wait) });
      }
    }
    const path = localPath(request.url, basePath);
    if (path === undefined) return publicHandler(request);
    const configure = /^\/(?:([^/]+)\/)?configure\/?$/.exec(path);
    if (configure && (request.method === 'POST' || configure[1] !== undefined) && request.method !== 'OPTIONS') {
      const started = performance.now();
      const foreign = request.method === 'POST' ? crossSiteOrigin(request, options) : undefined;
      if (foreign !== undefined) {
        service.refused('cross-site');
        return crossSiteResponse(foreign);
      }
      const response = await handleHostedConfigure(service, request, configure[1], {
        ...options,
        waitMs,
        clientAddress: clientAddress(request, options.trustProxy),
      });
      // A refused request is counted into a line a minute; the others get the same request
      // line as every other answer's, the token never written out.
      const refusedAs = REFUSED[response.status];
      if (refusedAs !== undefined) service.refused(refusedAs);
      else if (options.logger && options.logger.requests !== false) {
        options.logger.info({
          method: request.method,
          path: redactPath(request.url, basePath),
          status: response.status,
          ms: Math.round((performance.now() - started) * 100) / 100,
        });
      }
      return response;
    }
    let parsed: ReturnType<typeof parseAddonPath>;
    try {
      parsed = parseAddonPath(path);
    } catch {
      return publicHandler(request);
    }
    if (!parsed || parsed.config === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return publicHandler(request);
    }
    const values = service.codec.decode(parsed.config);
    const sources = values ? readHostedSources(values).sources : undefined;
    if (!sources) {
      service.refused('not-ours');
      return text(404, 'Not found');
    }
    const use = service.use(sources);
    if (use.ready) return service.handler(use.key)(request);
    if (use.importing) {
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        use.importing.then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), waitMs);
        }),
      ]);
      clearTimeout(timer);
      if (waited && service.record(use.key)?.importedAt !== undefined) return service.handler(use.key)(request);
    }
    return pending(request);
  }

  return {
    handle: route,
    addon: publicAddon,
    close: () => empty.close(),
  };
}

function text(status: number, body: string, extra: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: {
      'access-control-allow-origin': '*',
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
      ...extra,
    },
    body,
  };
}
