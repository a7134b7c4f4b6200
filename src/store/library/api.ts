/**
 * The library's part of the `Store` object: reads on the read connection, imports and manifest
 * saves on connections of their own. `openStore` spreads it into the store, so store.ts only
 * wires it in.
 */
import type { Connection } from '../connection.js';
import { storeError } from '../errors.js';
import type { importQueries } from '../imports.js';
import type { ImportRecord } from '../livetv/types.js';
import { ADDON_MANIFESTS_IMPORT_KIND, addonManifestReads, saveAddonManifests } from './addon-manifests.js';
import { beginLibraryImport, LIBRARY_IMPORT_KIND, type LibraryImport } from './import.js';
import { libraryReads } from './read.js';
import type { AddonManifestUpdate, LibraryCounts, LibraryImportOptions, LibraryImportReport } from './types.js';

export interface LibraryStoreHost {
  readonly file: string;
  readonly db: Connection;
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
  readonly imports: ReturnType<typeof importQueries>;
  /** Imports still open, so `close()` can abort them. */
  readonly active: Set<{ abort(reason: string): void }>;
}

const ZERO: LibraryCounts = {
  items: 0,
  movies: 0,
  series: 0,
  episodes: 0,
  streams: 0,
  subtitles: 0,
  genres: 0,
  adult: 0,
};

/** The library methods of a store (see `Store` for their documentation). */
export function libraryStoreApi(host: LibraryStoreHost) {
  const { imports } = host;
  const served = () => imports.lastOk(LIBRARY_IMPORT_KIND)?.report as LibraryImportReport | undefined;
  return {
    ...libraryReads(host.db),
    ...addonManifestReads(host.db),
    /** Report of the library being served (types, id prefixes, counts), undefined before the first import. */
    libraryInfo: (): LibraryImportReport | undefined => served(),
    /** Counts of the served library; zeros before the first import. */
    libraryCounts: (): LibraryCounts => served()?.counts ?? ZERO,
    /** The newest `n` library imports (max 100), newest first. */
    libraryImportHistory: (n = 10): ImportRecord[] =>
      imports.history(LIBRARY_IMPORT_KIND, Math.min(100, Math.max(1, Math.trunc(n) || 1))),
    /** The newest `n` refreshes of the add-on manifest cache (max 100), newest first. */
    addonManifestHistory: (n = 10): ImportRecord[] =>
      imports.history(ADDON_MANIFESTS_IMPORT_KIND, Math.min(100, Math.max(1, Math.trunc(n) || 1))),
    async beginLibraryImport(options?: LibraryImportOptions): Promise<LibraryImport> {
      if (!host.db.open) {
        throw storeError(host.file, new TypeError('The database connection is not open'), 'starting an import');
      }
      const imp = await beginLibraryImport(
        { file: host.file, openWriter: host.openWriter, ended: (done) => host.active.delete(done) },
        options,
      );
      host.active.add(imp);
      return imp;
    },
    saveAddonManifests: (updates: readonly AddonManifestUpdate[], options?: { lockTimeoutMs?: number }) =>
      saveAddonManifests(host, updates, options),
  };
}

export type LibraryStoreApi = ReturnType<typeof libraryStoreApi>;
