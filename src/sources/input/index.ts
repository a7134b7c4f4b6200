export { isForbiddenAddress } from './address.js';
export { type CopyFile, type CopyReadOptions, createCopyFile, openCopy, readCopyText, readFileChunks } from './copy.js';
export { redactLocation } from './location.js';
export { decodeText, openSource, prefetchSource, readSourceText } from './open.js';
export type {
  SourceCopySink,
  SourceMetadata,
  SourceNotModified,
  SourceOptions,
  SourceSnapshot,
  SourceStream,
  SourceText,
  SourceValidators,
} from './types.js';
