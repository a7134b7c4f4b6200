export { isForbiddenAddress } from './address.js';
export { redactLocation } from './location.js';
export { openSource, readSourceText } from './open.js';
export type {
  SourceMetadata,
  SourceNotModified,
  SourceOptions,
  SourceStream,
  SourceText,
  SourceValidators,
} from './types.js';
