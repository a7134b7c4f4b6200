import type { Catalog } from './catalog.js';
import type { Manifest } from './manifest.js';

/**
 * Which requests a manifest routes to its add-on, as the real client decides it. Shared by the
 * SDK (dispatch and 404s) and the checker (which requests to expect). Pure and allocation-light:
 * the SDK calls these on every request.
 */

/** The manifest fields routing reads; a full Manifest fits. */
export type RoutingManifest = Pick<Manifest, 'resources' | 'types' | 'idPrefixes' | 'catalogs' | 'addonCatalogs'>;

/** The catalog fields the extra helpers read; a full Catalog fits. */
export type CatalogExtras = Pick<Catalog, 'type' | 'extra'>;

function matchesPrefix(prefixes: readonly string[] | undefined, id: string): boolean {
  // No list matches every id; an empty list matches none (the client's reading of both).
  return prefixes === undefined || prefixes.some((prefix) => id.startsWith(prefix));
}

/**
 * True when the client would send `/{resource}/{type}/{id}` to this add-on. A string resource
 * uses the manifest-level types and idPrefixes; an object uses its own (no types: never asked;
 * no idPrefixes: every id). Catalogs and add-on catalogs are routed by their declared lists,
 * never by idPrefixes.
 *
 * @example resourceRoutes(manifest, 'stream', 'tv', 'mq-tv:bbc1') // true when 'stream' and 'tv' are declared and 'mq-tv:' is a prefix
 */
export function resourceRoutes(manifest: RoutingManifest, resource: string, type: string, id: string): boolean {
  if (resource === 'catalog') return findCatalog(manifest, type, id) !== undefined;
  if (resource === 'addon_catalog') {
    return manifest.addonCatalogs?.some((c) => c.type === type && c.id === id) === true;
  }
  for (const entry of manifest.resources) {
    if (typeof entry === 'string') {
      if (entry === resource && manifest.types.includes(type) && matchesPrefix(manifest.idPrefixes, id)) return true;
    } else if (entry.name === resource && entry.types?.includes(type) === true && matchesPrefix(entry.idPrefixes, id)) {
      return true;
    }
  }
  return false;
}

/**
 * The declared catalog with this type and id. The client merges duplicates; the first one wins here.
 *
 * @example findCatalog(manifest, 'movie', 'top')?.name
 */
export function findCatalog<M extends Pick<Manifest, 'catalogs'>>(
  manifest: M,
  type: string,
  id: string,
): M['catalogs'][number] | undefined {
  return manifest.catalogs.find((c) => c.type === type && c.id === id);
}

/**
 * True when the catalog declares the extra `name` (declared extras are the only ones the client sends).
 *
 * @example extraDeclared(catalog, 'search')
 */
export function extraDeclared(catalog: Pick<Catalog, 'extra'>, name: string): boolean {
  return catalog.extra?.some((e) => e.name === name) === true;
}

/**
 * A guide catalog is a `tv` catalog that declares the `date` extra (spec, Extra rule 10).
 *
 * @example isGuideCatalog({ type: 'tv', extra: [{ name: 'date' }, { name: 'skip' }] }) // true
 */
export function isGuideCatalog(catalog: CatalogExtras): boolean {
  return catalog.type === 'tv' && extraDeclared(catalog, 'date');
}

/**
 * Names of the extras the catalog requires. More than one makes the client ignore the catalog.
 *
 * @example requiredExtras({ extra: [{ name: 'search', isRequired: true }] }) // ['search']
 */
export function requiredExtras(catalog: Pick<Catalog, 'extra'>): string[] {
  return (catalog.extra ?? []).filter((e) => e.isRequired === true).map((e) => e.name);
}
