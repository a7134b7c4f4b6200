/**
 * The request core's platform on runtimes other than Node (web-platform.ts): gzip through
 * CompressionStream where the runtime does not compress, nothing on Workers (whose edge does),
 * and a 64-bit ETag hash that follows the bytes.
 */
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hash64, runtimeCompresses, webPlatform } from './web-platform.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('webPlatform', () => {
  it('gzips with CompressionStream, the one encoding it offers', async () => {
    const platform = webPlatform();
    expect(platform.negotiate('gzip, deflate, br')).toBe('gzip');
    expect(platform.negotiate('br')).toBe('identity');
    expect(platform.negotiate('gzip;q=0, br')).toBe('identity');
    expect(platform.negotiate(undefined)).toBe('identity');
    const body = new TextEncoder().encode(
      JSON.stringify({ metas: Array.from({ length: 200 }, (_, i) => ({ id: i })) }),
    );
    const packed = await platform.compress(body, 'gzip');
    expect(packed.byteLength).toBeLessThan(body.byteLength / 4);
    expect(new Uint8Array(gunzipSync(packed))).toEqual(body);
    await expect(platform.compress(body, 'br')).rejects.toThrow(/gzip only/);
  });

  it("leaves compression to a Worker's edge: every answer goes out as it is", () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    expect(runtimeCompresses()).toBe(true);
    // A Worker is always asked "br, gzip", whatever the client accepts.
    expect(webPlatform().negotiate('br, gzip')).toBe('identity');
  });

  it('makes plain Uint8Array bodies and weak ETags that follow the bytes', () => {
    const platform = webPlatform();
    const bytes = platform.bytes.utf8('{"a":"é"}');
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    expect(platform.etag(bytes)).toMatch(/^W\/"[0-9a-z]{14}"$/);
    expect(platform.etag(platform.bytes.copy(bytes))).toBe(platform.etag(bytes));
    expect(platform.etag(platform.bytes.utf8('{"a":"e"}'))).not.toBe(platform.etag(bytes));
  });
});

describe('hash64', () => {
  it('differs for every one of 20,000 near-identical bodies, and for each tail length', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(hash64(new TextEncoder().encode(`{"metas":[{"id":"tt${i}"}]}`)));
    expect(seen.size).toBe(20_000);
    const lengths = new Set([0, 1, 2, 3, 4, 5, 6, 7].map((n) => hash64(new Uint8Array(n))));
    expect(lengths.size).toBe(8);
  });
});
