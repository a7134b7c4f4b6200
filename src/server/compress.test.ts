import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from './compress.js';
import { jsonEntry, sendCachedEntry } from './respond.js';

describe('negotiateEncoding', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['gzip;q=0', 'identity'],
    ['br; q=0 , gzip ; q=0', 'identity'],
    ['deflate', 'identity'],
  ];

  it('picks brotli, then gzip, honouring q=0', () => {
    for (const [accept, expected] of cases) expect(negotiateEncoding(accept), String(accept)).toBe(expected);
  });

  it('answers the same from its memory of values seen, past its bound and for long values', () => {
    for (let round = 0; round < 2; round++) {
      for (const [accept, expected] of cases) expect(negotiateEncoding(accept)).toBe(expected);
    }
    // More distinct values than it remembers: each still parsed right.
    for (let i = 0; i < 200; i++) {
      const accept = i % 2 === 0 ? `gzip;q=0.5${i}` : `br;q=0, identity;q=0.${i}`;
      expect(negotiateEncoding(accept)).toBe(i % 2 === 0 ? 'gzip' : 'identity');
    }
    const long = `${'x-custom;q=0.1, '.repeat(40)}br`;
    expect(long.length).toBeGreaterThan(256);
    expect(negotiateEncoding(long)).toBe('br');
    expect(negotiateEncoding(`${'x-custom;q=0.1, '.repeat(40)}br;q=0`)).toBe('identity');
  });
});

describe('sendCachedEntry', () => {
  it('answers a cached page with one frozen answer per encoding, headers that match its body', () => {
    const { entry } = jsonEntry(
      { metas: Array.from({ length: 200 }, (_, i) => ({ id: `tt${i}` })) },
      {},
      1,
      Date.now() + 60_000,
    );
    const a = sendCachedEntry(entry, undefined, undefined, true)!;
    const b = sendCachedEntry(entry, 'deflate', undefined, true)!;
    expect(b).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.headers)).toBe(true);
    expect(a.headers['content-length']).toBe(String(entry.bodies.identity!.byteLength));
    expect(a.headers['content-encoding']).toBeUndefined();

    // Not compressed yet: no answer ready for gzip.
    expect(sendCachedEntry(entry, 'gzip', undefined, true)).toBeUndefined();
    const gz = Buffer.from('not really gzip');
    (entry.bodies as Record<string, Buffer>).gzip = gz;
    const g = sendCachedEntry(entry, 'gzip', undefined, true)!;
    expect(g.body).toBe(gz);
    expect(g.headers['content-encoding']).toBe('gzip');
    expect(g.headers['content-length']).toBe(String(gz.byteLength));
    expect(sendCachedEntry(entry, 'gzip', undefined, true)).toBe(g);
    // Compression off: identity whatever the client accepts.
    expect(sendCachedEntry(entry, 'gzip', undefined, false)).toBe(a);

    const notModified = sendCachedEntry(entry, 'gzip', `W/"other", ${entry.etag}`, true)!;
    expect(notModified.status).toBe(304);
    expect(sendCachedEntry(entry, 'gzip', 'W/"other"', true)).toBe(g);
  });
});
