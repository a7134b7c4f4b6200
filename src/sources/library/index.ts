export type { ItemCandidate } from './assemble.js';
export { parseLibraryCsv } from './csv.js';
export {
  assembleLibraryFolder,
  libraryFolderFile,
  listLibraryFolder,
  parseLibraryText,
  readLibrary,
  readLibraryFile,
  readLibraryFolder,
  readTextFile,
} from './files.js';
export { episodeId, GENERATED_ID_PREFIX, generatedItemId } from './id.js';
export {
  LIBRARY_TYPES,
  type LibraryItem,
  LibraryItemSchema,
  LibrarySubtitleSchema,
  type LibraryVideo,
  LibraryVideoSchema,
} from './item.js';
export { parseLibraryJson } from './json.js';
export { LIBRARY_DEFAULTS, type LibraryReadOptions, type LibraryReadResult } from './options.js';
// json-schema.ts is not exported: it needs a dev dependency (@valibot/to-json-schema).
