import { createHash } from 'node:crypto';
import { NODE_BYTES } from '../addon/raw-json.js';
import { compress } from './compress.js';
import { negotiateEncoding } from './encoding.js';
import type { Platform } from './platform.js';

/**
 * The request core's platform on Node: bodies as Buffers, brotli and gzip compressed by zlib in
 * threads of their own (compress.ts), SHA-1 ETags from node:crypto.
 */
export const NODE_PLATFORM: Platform = {
  bytes: NODE_BYTES,
  negotiate: negotiateEncoding,
  compress,
  etag: (body) => `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
};
