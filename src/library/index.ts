// The library file readers, for callers that read files without importing them into a store.
export {
  parseLibraryCsv,
  parseLibraryJson,
  readLibrary,
  readLibraryFile,
  readLibraryFolder,
} from '../sources/library/index.js';
export {
  type AddonCatalogsRefreshReport,
  addonEntries,
  type RefreshAddonCatalogsOptions,
  refreshAddonCatalogs,
} from './addon-catalogs.js';
export { derivedCatalogId, type LibraryCatalog, libraryCatalogs } from './catalogs.js';
export {
  type ImportLibraryOptions,
  type ImportLibraryResult,
  importLibrary,
  type LibraryImportProgress,
  type LibraryTextSource,
} from './import.js';
export {
  type AddonCatalogConfig,
  checkAddonCatalogs,
  checkCatalogs,
  LIBRARY_CACHE,
  LIBRARY_EXTRAS,
  type LibraryCatalogConfig,
  type LibraryExtra,
  type LibraryPartOptions,
} from './options.js';
export { ADULT_CONFIG_FIELD, audienceOf, createLibraryPart } from './part.js';
