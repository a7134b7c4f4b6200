import { MarqueeError } from '../errors.js';
import type { AddonCatalog } from '../protocol/addon-catalog.js';
import type { Catalog } from '../protocol/catalog.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Manifest } from '../protocol/manifest.js';
import type { Resource, ResourceObject } from '../protocol/resource.js';
import type { CacheHints } from '../protocol/responses.js';
import { resourceRoutes } from '../protocol/routing.js';
import type { Stream, Subtitle } from '../protocol/stream.js';
import { type Addon, type AddonOptions, createAddon } from './create-addon.js';
import type { Handlers, ItemRequest } from './types.js';

/** What one backend contributes to a composed add-on: its part of the manifest and its handlers. */
export interface AddonPart {
  /** For error messages (`livetv`, `library`). */
  readonly name: string;
  readonly types: readonly string[];
  readonly resources: readonly Resource[];
  readonly idPrefixes?: readonly string[];
  readonly catalogs: readonly Catalog[];
  readonly addonCatalogs?: readonly AddonCatalog[];
  /** True when this part serves a programme guide with real times. */
  readonly epgProvider?: boolean;
  readonly handlers: Handlers<Record<string, unknown>>;
}

/** The manifest fields that are not computed from the parts. */
export type BaseManifest = Pick<Manifest, 'id' | 'version' | 'name' | 'description'> &
  Partial<Pick<Manifest, 'logo' | 'background' | 'contactEmail'>> & {
    readonly config?: readonly ConfigField[];
    readonly behaviorHints?: {
      readonly configurable?: boolean;
      readonly configurationRequired?: boolean;
      readonly adult?: boolean;
    };
  };

/** A string resource of a part becomes an object with the part's own types and prefixes, so parts never route each other's ids. */
function ownResource(part: AddonPart, resource: Resource): Resource {
  if (typeof resource !== 'string' || resource === 'catalog' || resource === 'addon_catalog') return resource;
  const object: ResourceObject = { name: resource, types: [...part.types] };
  return part.idPrefixes ? { ...object, idPrefixes: [...part.idPrefixes] } : object;
}

function minHints(results: readonly CacheHints[]): CacheHints {
  const pick = (key: keyof CacheHints) => {
    const values = results.map((r) => r[key]).filter((x): x is number => typeof x === 'number');
    return values.length > 0 ? { [key]: Math.min(...values) } : {};
  };
  return { ...pick('cacheMaxAge'), ...pick('staleRevalidate'), ...pick('staleError') };
}

/**
 * One add-on from several backends (live TV, library): the manifest is the union of their parts;
 * a catalog goes to the part that declares it; meta goes to the first part that routes the id and
 * has it; streams and subtitles are gathered from every part that routes the id.
 *
 * @example composeAddon({ id: 'org.me.tv', version: '1.0.0', name: 'TV', description: '' }, [liveTv.part(), library.part()])
 */
export function composeAddon(
  base: BaseManifest,
  parts: readonly AddonPart[],
  options: Omit<AddonOptions<Manifest>, 'manifest' | 'handlers'> = {},
): Addon {
  const seen = new Map<string, string>();
  for (const part of parts) {
    for (const c of part.catalogs) {
      const key = `${c.type}/${c.id}`;
      const other = seen.get(key);
      if (other)
        throw new MarqueeError('INVALID_MANIFEST', `catalog ${key} is declared by both ${other} and ${part.name}`);
      seen.set(key, part.name);
    }
  }
  const resources = mergeResources(parts.flatMap((part) => part.resources.map((r) => ownResource(part, r))));
  const addonCatalogs = parts.flatMap((p) => p.addonCatalogs ?? []);
  const epg = parts.some((p) => p.epgProvider);
  const manifest = {
    ...base,
    types: [...new Set(parts.flatMap((p) => p.types))],
    resources,
    catalogs: parts.flatMap((p) => p.catalogs),
    ...(addonCatalogs.length > 0 ? { addonCatalogs } : {}),
    ...(base.behaviorHints || epg
      ? { behaviorHints: { ...base.behaviorHints, ...(epg ? { epgProvider: true } : {}) } }
      : {}),
  } as Manifest;

  const routed = (resource: string, request: ItemRequest) =>
    parts.filter((p) => {
      const partManifest = {
        resources: p.resources.map((r) => ownResource(p, r)) as Resource[],
        types: [...p.types],
        catalogs: [],
      };
      return resourceRoutes(partManifest as never, resource, request.type, request.id);
    });

  const handlers: Handlers<Record<string, unknown>> = {
    catalog: (request) => {
      const part = parts.find((p) => p.catalogs.some((c) => c.type === request.type && c.id === request.id));
      return part?.handlers.catalog?.(request);
    },
    meta: async (request) => {
      for (const part of routed('meta', request)) {
        const result = await part.handlers.meta?.(request);
        if (result?.meta) return result;
      }
      return null;
    },
    stream: async (request) => {
      const results = await Promise.all(routed('stream', request).map((p) => p.handlers.stream?.(request)));
      const ok = results.filter((r) => r != null);
      const streams: Stream[] = ok.flatMap((r) => r.streams);
      return { streams, ...minHints(ok) };
    },
    subtitles: async (request) => {
      const results = await Promise.all(routed('subtitles', request).map((p) => p.handlers.subtitles?.(request)));
      const ok = results.filter((r) => r != null);
      const subtitles: Subtitle[] = ok.flatMap((r) => r.subtitles);
      return { subtitles, ...minHints(ok) };
    },
    addonCatalog: (request) => {
      const part = parts.find((p) => p.addonCatalogs?.some((c) => c.type === request.type && c.id === request.id));
      return part?.handlers.addonCatalog?.(request);
    },
  };
  // Only the handlers of resources some part declares: createAddon refuses a handler that is never asked.
  const declared = new Set(resources.map((r) => (typeof r === 'string' ? r : r.name)));
  const served: Handlers<Record<string, unknown>> = {
    ...(declared.has('catalog') ? { catalog: handlers.catalog } : {}),
    ...(declared.has('meta') ? { meta: handlers.meta } : {}),
    ...(declared.has('stream') ? { stream: handlers.stream } : {}),
    ...(declared.has('subtitles') ? { subtitles: handlers.subtitles } : {}),
    ...(declared.has('addon_catalog') ? { addonCatalog: handlers.addonCatalog } : {}),
  };
  return createAddon({ ...options, manifest, handlers: served as never });
}

/**
 * One entry per resource name: the real client reads only the first entry of a name (stremio-core
 * `is_resource_supported` finds one), so a second part's `meta` object would never be asked.
 * Objects of one name merge their types and prefixes; one without prefixes routes every id.
 */
function mergeResources(all: readonly Resource[]): Resource[] {
  const out: Resource[] = [];
  for (const r of all) {
    const name = typeof r === 'string' ? r : r.name;
    const at = out.findIndex((o) => (typeof o === 'string' ? o : o.name) === name);
    if (at === -1) {
      out.push(r);
      continue;
    }
    const prev = out[at]!;
    if (typeof prev === 'string' || typeof r === 'string') {
      out[at] = name;
      continue;
    }
    const prefixes =
      prev.idPrefixes === undefined || r.idPrefixes === undefined
        ? undefined
        : [...new Set([...prev.idPrefixes, ...r.idPrefixes])];
    out[at] = {
      ...prev,
      types: [...new Set([...(prev.types ?? []), ...(r.types ?? [])])],
      ...(prefixes !== undefined ? { idPrefixes: prefixes } : {}),
    };
    if (prefixes === undefined) delete (out[at] as { idPrefixes?: unknown }).idPrefixes;
  }
  return out;
}
