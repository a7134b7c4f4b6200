import { WEB_BYTES } from '../addon/bytes.js';
import { type Compressed, negotiateGzip } from './encoding.js';
import type { Platform } from './platform.js';

/**
 * The request core's platform on every runtime but Node, with Web APIs only: gzip through
 * `CompressionStream` in the serving thread (there are no threads), none where the runtime
 * compresses answers itself: Cloudflare compresses a Worker's answers at its edge, outside the
 * Worker's CPU time and in brotli too (a Worker is always asked `Accept-Encoding: br, gzip`,
 * whatever the client accepts). Bun and Deno (2.9) send answers as they are given, so there the
 * add-on compresses. ETags are a 64-bit hash of the bytes, computed in JavaScript (Web Crypto's
 * digest has no synchronous form).
 *
 * @example createCoreHandler(addon, {}, webPlatform())
 */
export function webPlatform(): Platform {
  const gzip = typeof CompressionStream === 'function' && !runtimeCompresses();
  return {
    bytes: WEB_BYTES,
    negotiate: gzip ? negotiateGzip : () => 'identity',
    compress: compressStream,
    etag: (body) => `W/"${hash64(body)}"`,
  };
}

/** Whether the runtime compresses answers on their way out: Cloudflare Workers (its edge does). */
export function runtimeCompresses(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
}

/** `body` through a `CompressionStream`: gzip is the one encoding every runtime's has. */
async function compressStream(body: Uint8Array, encoding: Compressed): Promise<Uint8Array> {
  if (encoding !== 'gzip') throw new Error(`this runtime compresses to gzip only, not ${encoding}`);
  const stream = new Blob([body as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Two 32-bit multiply-xor lanes over the bytes, four at a time, mixed at the end (as cyrb53
 * does): 11 base64url-ish characters. Not a cryptographic hash: an ETag only has to change when
 * the bytes of one URL's answer change.
 */
export function hash64(body: Uint8Array): string {
  const length = body.byteLength;
  let h1 = 0xdeadbeef ^ length;
  let h2 = 0x41c6ce57 ^ length;
  const whole = length - (length % 4);
  let i = 0;
  for (; i < whole; i += 4) {
    const word = body[i]! | (body[i + 1]! << 8) | (body[i + 2]! << 16) | (body[i + 3]! << 24);
    h1 = Math.imul(h1 ^ word, 2654435761);
    h2 = Math.imul(h2 ^ word, 1597334677);
  }
  for (; i < length; i++) {
    h1 = Math.imul(h1 ^ body[i]!, 2654435761);
    h2 = Math.imul(h2 ^ body[i]!, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(36).padStart(7, '0') + (h1 >>> 0).toString(36).padStart(7, '0');
}
