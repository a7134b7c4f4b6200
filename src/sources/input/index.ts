export { isForbiddenAddress } from './address.js';
export { type CopyFile, type CopyReadOptions, createCopyFile, openCopy, readCopyText, readFileChunks } from './copy.js';
export { redactLocation } from './location.js';
export { decodeText, openSource, readSourceText } from './open.js';
export type {
  SourceCopySink,
  SourceMetadata,
  SourceNotModified,
  SourceOptions,
  SourceStream,
  SourceText,
  SourceValidators,
} from './types.js';
