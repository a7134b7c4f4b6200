import { describe, expect, it } from 'vitest';
import { type CachedResponse, ResponseCache } from './response-cache.js';

const entry = (bytes: number): CachedResponse => ({
  version: 1,
  expires: Number.POSITIVE_INFINITY,
  headers: {},
  etag: '"x"',
  bodies: { identity: Buffer.alloc(bytes) },
});

describe('response cache', () => {
  it('keeps an answer from the second request of its path within the time limit', () => {
    const cache = new ResponseCache({ maxTtlMs: 1_000 });
    expect(cache.admit('/a', 0)).toBe(false);
    expect(cache.admit('/b', 10)).toBe(false);
    expect(cache.admit('/a', 500)).toBe(true);
    // Too late for /b: counted as a first request again.
    expect(cache.admit('/b', 1_500)).toBe(false);
    expect(cache.admit('/b', 1_600)).toBe(true);
  });

  it('keeps every answer with admitAfter 1, and counts further with more', () => {
    const every = new ResponseCache({ admitAfter: 1 });
    expect(every.admit('/a', 0)).toBe(true);
    const third = new ResponseCache({ admitAfter: 3 });
    expect([0, 1, 2].map((t) => third.admit('/a', t))).toEqual([false, false, true]);
  });

  it('remembers a bounded number of paths asked once', () => {
    const cache = new ResponseCache();
    for (let i = 0; i <= 10_000; i++) cache.admit(`/${i}`, 0);
    expect(cache.admit('/0', 1)).toBe(false); // forgotten: the oldest went first
    expect(cache.admit('/10000', 1)).toBe(true);
  });

  it('evicts the least recently used answers beyond its size', () => {
    const cache = new ResponseCache({ maxBytes: 4_000 });
    for (const key of ['/a', '/b', '/c', '/d']) cache.set(key, entry(700)); // about 960 bytes each
    expect(cache.get('/a', 1, 0)).toBeDefined();
    cache.set('/e', entry(700)); // over 4,000: /b is now the least recently used
    expect(cache.get('/b', 1, 0)).toBeUndefined();
    expect(['/a', '/c', '/d', '/e'].map((k) => cache.get(k, 1, 0) !== undefined)).toEqual([true, true, true, true]);
    expect(cache.get('/a', 2, 0)).toBeUndefined(); // another data version
  });

  it('keeps an answer that is asked again through every eviction, and drops the ones not asked', () => {
    const cache = new ResponseCache({ maxBytes: 4_000 });
    cache.set('/hot', entry(700));
    for (let i = 0; i < 50; i++) {
      expect(cache.get('/hot', 1, 0), `after ${i} inserts`).toBeDefined();
      cache.set(`/cold${i}`, entry(700));
      expect(cache.bytes).toBeLessThanOrEqual(4_000);
    }
    expect(cache.size).toBe(4);
    expect(cache.get('/cold0', 1, 0)).toBeUndefined();
    expect(cache.get('/cold49', 1, 0)).toBeDefined();
  });
});
