import type { Bytes } from '../addon/bytes.js';
import type { Compressed, Encoding } from './encoding.js';

/**
 * What the request core asks of the runtime it runs on: how bodies are made, compressed and
 * tagged. The core itself uses Web APIs only; Node gives it Buffers, zlib in threads and
 * node:crypto (node-platform.ts), every other runtime Web APIs (web-platform.ts).
 */
export interface Platform {
  /** How answer bodies are made (Buffers on Node). */
  readonly bytes: Bytes;
  /**
   * The encoding to answer in from Accept-Encoding, among those this platform compresses to:
   * always `identity` where the runtime compresses answers itself (Workers).
   */
  negotiate(acceptEncoding: string | undefined): Encoding;
  /** `body` compressed (only in an encoding `negotiate` chose). */
  compress(body: Uint8Array, encoding: Compressed): Promise<Uint8Array>;
  /** A weak validator of `body` (`W/"…"`), the same for the same bytes. */
  etag(body: Uint8Array): string;
}
