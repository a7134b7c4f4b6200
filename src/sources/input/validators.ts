import type { SourceValidators } from './types.js';

/**
 * The ETag / Last-Modified of a read, if the source gave any: what the next read of it sends back
 * (`SourceOptions.previous`) to be answered "not modified".
 * @example validatorsOf(read.metadata) // { etag: '"abc"' }
 */
export function validatorsOf(metadata: {
  readonly etag?: string;
  readonly lastModified?: string;
}): SourceValidators | undefined {
  if (metadata.etag === undefined && metadata.lastModified === undefined) return undefined;
  return {
    ...(metadata.etag !== undefined ? { etag: metadata.etag } : {}),
    ...(metadata.lastModified !== undefined ? { lastModified: metadata.lastModified } : {}),
  };
}
