/**
 * What the operator configures for the library part: its catalogs (declared, or one per type
 * derived from the store), the add-on catalogs, cache hints. Checked once when the part is
 * built: a mistake is INVALID_SETTINGS naming the catalog and field, not a broken manifest.
 */
import { MarqueeError } from '../errors.js';
import type { CacheHints } from '../protocol/responses.js';
import { LIBRARY_SORTS, type LibrarySort } from '../store/index.js';

/** Extras a library catalog may offer. */
export const LIBRARY_EXTRAS = ['search', 'genre', 'skip'] as const;
export type LibraryExtra = (typeof LIBRARY_EXTRAS)[number];

/** A library catalog declared in configuration. */
export interface LibraryCatalogConfig {
  /** `movie` or `series`: the items of that type are the catalog. */
  readonly type: string;
  /** Unique per type. */
  readonly id: string;
  readonly name: string;
  /** Which extras it offers; default all of search, genre and skip. */
  readonly extras?: readonly LibraryExtra[];
  /** Feed order; default `newest`. Search pages are ranked by relevance instead. */
  readonly sort?: LibrarySort;
}

/** An add-on catalog: a list of other add-ons, by manifest URL. */
export interface AddonCatalogConfig {
  readonly type: string;
  readonly id: string;
  readonly name: string;
  /** Manifest URLs (`https://host/path/manifest.json`), in the order the catalog lists them. */
  readonly addons: readonly string[];
}

export interface LibraryPartOptions {
  /** Declared catalogs; when absent, one `newest` feed per type present in the store. */
  readonly catalogs?: readonly LibraryCatalogConfig[];
  readonly addonCatalogs?: readonly AddonCatalogConfig[];
  /** Cache hints of library answers. Default 1 hour fresh, 1 day stale-while-revalidate, 1 week stale-if-error. */
  readonly cache?: CacheHints;
  /** Most genres offered per catalog (those with the most items); default 100, keeping the manifest small. */
  readonly maxGenreOptions?: number;
  /**
   * Bytes of an answer built from the store, at most (`addon.maxAnswerBytes`, default 4 MiB): a
   * catalog page ends before the item that would pass it, a series keeps its first episodes that fit.
   */
  readonly maxAnswerBytes?: number;
}

/** Library data changes only on import: clients and CDNs may keep answers long. */
export const LIBRARY_CACHE: CacheHints = { cacheMaxAge: 3_600, staleRevalidate: 86_400, staleError: 604_800 };
export const DEFAULT_MAX_GENRE_OPTIONS = 100;
/** Most add-ons one add-on catalog may list (one store read each per request). */
export const MAX_ADDONS_PER_CATALOG = 200;
/** Names of the derived catalogs, per type. */
export const DERIVED_CATALOG_NAMES: Readonly<Record<string, string>> = { movie: 'Movies', series: 'Series' };

function invalid(path: string, message: string): MarqueeError {
  return new MarqueeError('INVALID_SETTINGS', `${path}: ${message}`, { details: { path } });
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(path, 'must be a non-empty string');
  return value;
}

/**
 * The declared catalogs, checked: known extras and sorts, no repeated type/id.
 *
 * @example checkCatalogs([{ type: 'movie', id: 'top', name: 'Top', sort: 'rating' }])
 */
export function checkCatalogs(catalogs: readonly LibraryCatalogConfig[]): Required<LibraryCatalogConfig>[] {
  const seen = new Set<string>();
  return catalogs.map((c, i) => {
    const path = `library.catalogs[${i}]`;
    const type = text(c.type, `${path}.type`);
    const id = text(c.id, `${path}.id`);
    const name = text(c.name, `${path}.name`);
    if (seen.has(`${type}/${id}`)) throw invalid(`${path}.id`, `repeats the catalog ${type}/${id}`);
    seen.add(`${type}/${id}`);
    const extras = c.extras ?? LIBRARY_EXTRAS;
    for (const [j, e] of extras.entries()) {
      if (!LIBRARY_EXTRAS.includes(e))
        throw invalid(`${path}.extras[${j}]`, `must be one of ${LIBRARY_EXTRAS.join(', ')}`);
    }
    const sort = c.sort ?? 'newest';
    if (!LIBRARY_SORTS.includes(sort)) throw invalid(`${path}.sort`, `must be one of ${LIBRARY_SORTS.join(', ')}`);
    return { type, id, name, extras: [...new Set(extras)], sort };
  });
}

/**
 * The add-on catalogs, checked: each URL absolute http(s) ending in `/manifest.json`.
 *
 * @example checkAddonCatalogs([{ type: 'movie', id: 'friends', name: 'Friends', addons: ['https://a.example/manifest.json'] }])
 */
export function checkAddonCatalogs(catalogs: readonly AddonCatalogConfig[]): AddonCatalogConfig[] {
  const seen = new Set<string>();
  return catalogs.map((c, i) => {
    const path = `addonCatalogs[${i}]`;
    const type = text(c.type, `${path}.type`);
    const id = text(c.id, `${path}.id`);
    const name = text(c.name, `${path}.name`);
    if (seen.has(`${type}/${id}`)) throw invalid(`${path}.id`, `repeats the add-on catalog ${type}/${id}`);
    seen.add(`${type}/${id}`);
    if (!Array.isArray(c.addons)) throw invalid(`${path}.addons`, 'must be a list of manifest URLs');
    if (c.addons.length > MAX_ADDONS_PER_CATALOG) {
      throw invalid(`${path}.addons`, `lists ${c.addons.length} add-ons; at most ${MAX_ADDONS_PER_CATALOG}`);
    }
    const addons = c.addons.map((url, j) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        // reported below
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        throw invalid(`${path}.addons[${j}]`, `"${String(url).slice(0, 80)}" is not an http(s) URL`);
      }
      if (!parsed.pathname.endsWith('/manifest.json')) {
        throw invalid(`${path}.addons[${j}]`, `"${url.slice(0, 80)}" must end in /manifest.json (an add-on's address)`);
      }
      return url;
    });
    return { type, id, name, addons: [...new Set(addons)] };
  });
}
