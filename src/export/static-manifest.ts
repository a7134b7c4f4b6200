import type { Catalog, Manifest } from '../protocol/index.js';

/**
 * The manifest of a static export. A static host answers only the files written, so whatever
 * needs a live server leaves the manifest: the `search` extra (a query cannot be precomputed),
 * catalogs whose only way in was a required search, and configuration (no /configure page and
 * no per-user answers). Each change is said in `notes`, for the report and the CLI.
 */

export interface StaticManifest {
  readonly manifest: Manifest;
  /** What was changed and why, one sentence each. */
  readonly notes: readonly string[];
}

/**
 * Rewrite a manifest for static hosting.
 *
 * @example staticManifest(addon.manifest).notes // ['catalog movie/top: the search extra is dropped: ...']
 */
export function staticManifest(manifest: Manifest): StaticManifest {
  const notes: string[] = [];
  const catalogs: Catalog[] = [];
  for (const catalog of manifest.catalogs) {
    const label = `catalog ${catalog.type}/${catalog.id}`;
    const search = catalog.extra?.find((e) => e.name === 'search');
    if (search === undefined) {
      catalogs.push(catalog);
    } else if (search.isRequired === true) {
      notes.push(`${label} is dropped: it only answers searches, and a search cannot be precomputed`);
    } else {
      notes.push(
        `${label}: the search extra is dropped: a search cannot be precomputed, so the catalog is not searchable`,
      );
      catalogs.push({ ...catalog, extra: catalog.extra!.filter((e) => e.name !== 'search') });
    }
  }

  const out: Manifest = { ...manifest, catalogs };
  if (manifest.config !== undefined) {
    notes.push('config is dropped: a static export answers one fixed configuration and has no /configure page');
    delete out.config;
  }
  const hints = manifest.behaviorHints;
  if (hints?.configurable !== undefined || hints?.configurationRequired !== undefined) {
    const { configurable: _c, configurationRequired: _r, ...rest } = hints;
    if (Object.keys(rest).length > 0) out.behaviorHints = rest;
    else delete out.behaviorHints;
    notes.push('behaviorHints.configurable and configurationRequired are dropped: the export cannot be configured');
  }
  return { manifest: out, notes };
}
