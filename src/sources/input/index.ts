export { isForbiddenAddress } from './address.js';
export { inflateChunks } from './bytes.js';
export { type CopyFile, type CopyReadOptions, createCopyFile, openCopy, readCopyText, readFileChunks } from './copy.js';
export { type TextEncoding, textEncodingOf } from './encoding.js';
export { fsErrorReason } from './file.js';
export { createHostMemo, type HostMemo, UNREACHABLE_CONNECT_TIMEOUT_MS } from './hosts.js';
export { limitBytes, limitsFor, SOURCE_LIMITS, type SourceKind, tooLarge } from './limits.js';
export { type LiveOptions, type LiveSource, openLive } from './live.js';
export { redactLocation, redactStreamUrl } from './location.js';
export { decodeText, type HeadOptions, openSource, readSourceHead, readSourceText, type SourceHead } from './open.js';
export type {
  InflateOptions,
  SourceCopySink,
  SourceMetadata,
  SourceNotModified,
  SourceOptions,
  SourceStream,
  SourceText,
  SourceValidators,
  UndecodedSource,
} from './types.js';
export { validatorsOf } from './validators.js';
