import { type Issue, MarqueeError } from '../errors.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Manifest, ManifestInput } from '../protocol/manifest.js';
import type { ExtraPairs } from '../protocol/path.js';
import { type CacheHints, MAX_PAGE_SIZE } from '../protocol/responses.js';
import { findCatalog, resourceRoutes } from '../protocol/routing.js';
import { validateManifest } from '../protocol/validate-manifest.js';
import { validateResponse } from '../protocol/validate-response.js';
import {
  type AnyConfigCodec,
  type AsyncConfigCodec,
  type ConfigCodec,
  checkConfig,
  isPromiseLike,
  jsonConfigCodec,
} from './config.js';
import { readCatalogExtra } from './extra.js';
import { handlerIssues } from './handler-check.js';
import { isRawJsonList, parseRawJson, type RawJsonList } from './raw-list.js';
import type {
  AddonRequest,
  AddonResponse,
  ConfigValues,
  DeclaredExtraNames,
  DeepReadonly,
  Handlers,
  ItemRequest,
} from './types.js';

export interface AddonOptions<M extends DeepReadonly<ManifestInput>, C extends AnyConfigCodec = ConfigCodec> {
  /** The manifest; validated at creation: errors refuse to start, warnings are kept on `addon.warnings`. */
  readonly manifest: M;
  /** Typed from the manifest: `config` from its config fields, `extra` from its catalogs' extras. */
  readonly handlers: Handlers<ConfigValues<M['config']>, DeclaredExtraNames<M>>;
  /**
   * How the config path segment is read and written; default: the official SDK's JSON form. An
   * asynchronous codec (Web Crypto's `createWebTokenCodec`) makes `manifestFor` answer a promise.
   */
  readonly configCodec?: C;
  /**
   * Check every handler answer against the protocol (wrapper key, page size, item validity,
   * programme rules) and refuse bad ones with INVALID_RESPONSE. Default true; turn off in
   * production only once the add-on's tests run with it on.
   */
  readonly validateResponses?: boolean;
  /**
   * Also check pre-serialized lists (`rawJsonList`), which costs parsing them. Default: the
   * value of `validateResponses`. The CLI turns it off for its own backends, whose raw pages
   * are checked by their tests with it on.
   */
  readonly validateRawJson?: boolean;
  /**
   * Changes whenever the data behind the handlers changes; the server keys its response cache on
   * it. The server passes `now`, its own `Date.now()` of the request, so that a version held for
   * a while need not read the clock again (a cached page's answer is a few microseconds). Once it
   * has built an answer it asks again without `now`: then the version must be current, not one
   * held for a while, so that an answer built across a change is not kept under the old version.
   */
  readonly dataVersion?: (now?: number) => string | number;
  /** Called with problems that do not stop an answer (a page cut to 100 items in lenient mode). */
  readonly onWarning?: (message: string, details: Record<string, unknown>) => void;
}

/**
 * An add-on. `C` is its config codec's kind: with a synchronous one (the default, and Node's
 * `createTokenCodec`) `manifestFor` answers at once; with an asynchronous one (Web Crypto) it
 * answers a promise. A server takes either (`AnyAddon`).
 */
export interface Addon<C extends AnyConfigCodec = ConfigCodec> {
  readonly manifest: Manifest;
  /** Manifest problems that do not refuse to start. */
  readonly warnings: readonly Issue[];
  readonly configFields: readonly ConfigField[];
  readonly configCodec: C;
  readonly dataVersion: (now?: number) => string | number;
  /** Answer `/{config?}/manifest.json`; 404 when the config segment is not valid. */
  manifestFor(configSegment?: string): C extends AsyncConfigCodec ? Promise<AddonResponse> : AddonResponse;
  /** Answer one resource request, enforcing the protocol around the handlers. */
  handle(request: AddonRequest): Promise<AddonResponse>;
}

/** An add-on with either kind of config codec: what a server serves. */
export type AnyAddon = Addon<AnyConfigCodec>;

const notFound = (reason: string): AddonResponse => ({ status: 404, reason });

/**
 * Define an add-on from a manifest and handlers. The add-on, not each handler, enforces the
 * protocol: routing by types and idPrefixes, declared extras, pages of at most 100, 404s.
 *
 * @example
 * const addon = createAddon({
 *   manifest: { id: 'org.example', version: '1.0.0', name: 'Example', description: '', resources: ['catalog'], types: ['movie'], catalogs: [{ type: 'movie', id: 'top', name: 'Top' }] },
 *   handlers: { catalog: ({ extra }) => ({ metas: page(ALL, extra.skip) }) },
 * });
 */
export function createAddon<const M extends DeepReadonly<ManifestInput>, C extends AnyConfigCodec = ConfigCodec>(
  options: AddonOptions<M, C>,
): Addon<C> {
  const validated = validateManifest(options.manifest);
  const { manifest, warnings } = validated;
  // Handlers are checked against the manifest once it reads as one; every problem is listed at once.
  const errors = [
    ...validated.errors,
    ...handlerIssues(options.manifest, options.handlers as Readonly<Record<string, unknown>>),
  ];
  if (!manifest || errors.length > 0) {
    const list = errors.map((e) => `  ${e.path}: ${e.message}`).join('\n');
    throw new MarqueeError('INVALID_MANIFEST', `the manifest has ${errors.length} error(s):\n${list}`, {
      details: { errors, warnings },
    });
  }
  const handlers = options.handlers as unknown as Handlers<Record<string, unknown>>;
  const codec: AnyConfigCodec = options.configCodec ?? jsonConfigCodec;
  const fields = manifest.config ?? [];
  const strict = options.validateResponses ?? true;
  const strictRaw = options.validateRawJson ?? strict;
  const dataVersion = options.dataVersion ?? (() => 0);
  const configRequired = manifest.behaviorHints?.configurationRequired === true;

  /** The checked values of a segment, undefined when they are not valid; a promise with an asynchronous codec. */
  function config(
    segment: string | undefined,
  ): Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined> {
    if (segment === undefined) return checked({});
    const raw = codec.decode(segment);
    return isPromiseLike(raw) ? raw.then(checked) : checked(raw);
  }

  function checked(raw: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    try {
      return checkConfig(fields, raw);
    } catch (error) {
      if (error instanceof MarqueeError && error.code === 'INVALID_CONFIG') return undefined;
      throw error;
    }
  }

  function answer(request: AddonRequest, key: string, result: Record<string, unknown>): AddonResponse {
    const { cacheMaxAge, staleRevalidate, staleError, ...answered } = result as Record<string, unknown> & CacheHints;
    let body = answered;
    const raw = isRawJsonList(body[key]) ? (body[key] as RawJsonList) : undefined;
    const keepRaw = raw !== undefined && request.rawJson === true;
    if (raw !== undefined && (strictRaw || raw.count > MAX_PAGE_SIZE || !keepRaw)) {
      // Checked or handed on as objects: parsed once here.
      body = parseRawJson(body);
    }
    const list = body[key];
    if (request.resource === 'catalog' && Array.isArray(list) && list.length > MAX_PAGE_SIZE) {
      if (strict) {
        throw new MarqueeError('INVALID_RESPONSE', `catalog page has ${list.length} items; at most ${MAX_PAGE_SIZE}`);
      }
      options.onWarning?.('catalog page cut to 100 items', { path: request, items: list.length });
      body[key] = list.slice(0, MAX_PAGE_SIZE);
    }
    if (strict && (raw === undefined || strictRaw)) {
      const issues = validateResponse(request, body).filter((i) => i.severity === 'error');
      if (issues.length > 0) {
        const first = issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`);
        throw new MarqueeError('INVALID_RESPONSE', `handler answer breaks the protocol: ${first.join('; ')}`, {
          details: { issues },
        });
      }
    }
    const cache: { -readonly [K in keyof CacheHints]: CacheHints[K] } = {};
    if (typeof cacheMaxAge === 'number') cache.cacheMaxAge = cacheMaxAge;
    if (typeof staleRevalidate === 'number') cache.staleRevalidate = staleRevalidate;
    if (typeof staleError === 'number') cache.staleError = staleError;
    // A raw list that passed (not cut) is served as it came, the same bytes, to a caller that takes raw lists.
    return { status: 200, body: keepRaw && body[key] === list ? { ...body, [key]: raw } : body, cache };
  }

  async function handle(request: AddonRequest): Promise<AddonResponse> {
    const { resource, type, id } = request;
    if (configRequired && request.config === undefined) return notFound('this add-on needs a configuration');
    const decoded = config(request.config);
    const values = isPromiseLike(decoded) ? await decoded : decoded;
    if (!values) return notFound('the configuration is not valid');
    const base = {
      type,
      id,
      config: values,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.origin !== undefined ? { origin: request.origin } : {}),
    };

    if (resource === 'catalog') {
      const catalog = findCatalog(manifest!, type, id);
      if (!catalog || !handlers.catalog || !resourceDeclared(manifest!, 'catalog')) {
        return notFound(`no catalog ${type}/${id}`);
      }
      const extra = readCatalogExtra(catalog, request.extra);
      if ('notServed' in extra) return notFound(extra.notServed);
      const key = extra.date === undefined ? 'metas' : 'metasDetailed';
      const result = await handlers.catalog({ ...base, extra, catalog });
      return answer(request, key, (result ?? { [key]: [] }) as Record<string, unknown>);
    }

    const item: ItemRequest<Record<string, unknown>> = { ...base, extra: groupExtra(request.extra) };
    switch (resource) {
      case 'meta': {
        if (!handlers.meta || !resourceRoutes(manifest!, 'meta', type, id))
          return notFound(`meta ${type}/${id} not routed here`);
        const result = await handlers.meta(item);
        if (!result?.meta) return notFound(`no meta ${type}/${id}`);
        return answer(request, 'meta', result);
      }
      case 'stream': {
        if (!handlers.stream || !resourceRoutes(manifest!, 'stream', type, id))
          return notFound(`stream ${type}/${id} not routed here`);
        return answer(request, 'streams', (await handlers.stream(item)) ?? { streams: [] });
      }
      case 'subtitles': {
        if (!handlers.subtitles || !resourceRoutes(manifest!, 'subtitles', type, id)) {
          return notFound(`subtitles ${type}/${id} not routed here`);
        }
        return answer(request, 'subtitles', (await handlers.subtitles(item)) ?? { subtitles: [] });
      }
      case 'addon_catalog': {
        const declared = manifest!.addonCatalogs?.some((c) => c.type === type && c.id === id);
        if (!handlers.addonCatalog || !declared || !resourceDeclared(manifest!, 'addon_catalog')) {
          return notFound(`no add-on catalog ${type}/${id}`);
        }
        return answer(request, 'addons', (await handlers.addonCatalog(item)) ?? { addons: [] });
      }
      default:
        return notFound(`resource ${resource} is not served`);
    }
  }

  const served = (): AddonResponse => ({
    status: 200,
    body: manifest as unknown as Record<string, unknown>,
    cache: {},
  });
  const answerManifest = (values: Record<string, unknown> | undefined) =>
    values ? served() : notFound('the configuration is not valid');
  function manifestFor(segment?: string): AddonResponse | Promise<AddonResponse> {
    if (segment === undefined) return served();
    const values = config(segment);
    return isPromiseLike(values) ? values.then(answerManifest) : answerManifest(values);
  }

  return {
    manifest,
    warnings,
    configFields: fields,
    configCodec: codec as C,
    dataVersion,
    manifestFor: manifestFor as Addon<C>['manifestFor'],
    handle,
  };
}

function resourceDeclared(manifest: Manifest, name: string): boolean {
  return manifest.resources.some((r) => (typeof r === 'string' ? r : r.name) === name);
}

function groupExtra(pairs: ExtraPairs): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
