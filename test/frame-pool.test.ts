import { afterEach, describe, expect, it } from 'vitest';
import { allocRawJsonList, createAddon, createFramePool, type FramePool } from '../src/addon/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { httpRequest } from './helpers/http.js';

/** A pool that records the frames it hands out and gets back. */
function watchedPool(): FramePool & { taken: Buffer[]; given: Buffer[] } {
  const pool = createFramePool();
  const taken: Buffer[] = [];
  const given: Buffer[] = [];
  return {
    taken,
    given,
    take(bytes) {
      const frame = pool.take(bytes);
      taken.push(frame);
      return frame;
    },
    give(frame) {
      given.push(frame);
      pool.give(frame);
    },
  };
}

/** An add-on whose catalog writes `channels` metas of about 2 KB each into a pooled raw list. */
function pooledAddon(pool: FramePool) {
  return createAddon({
    manifest: {
      id: 'org.test.frames',
      version: '1.0.0',
      name: 'Frames',
      description: 'd',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'big', name: 'Big', extra: [{ name: 'skip' }] }],
    },
    handlers: {
      catalog: ({ extra }) => {
        const metas = Array.from({ length: 100 }, (_, i) => ({
          id: `tt${(extra.skip ?? 0) + i}`,
          type: 'movie',
          name: `Film ${i} ${'x'.repeat(2000)}`,
        }));
        const json = Buffer.from(JSON.stringify(metas));
        const list = allocRawJsonList(json.length, pool);
        json.copy(list.bytes);
        return { metas: list.done(metas.length) };
      },
    },
  });
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('pooled answer frames', () => {
  it('are given back once written out, and used again for the next page', async () => {
    const pool = watchedPool();
    server = await listen(createRequestHandler(pooledAddon(pool), { responseCache: false }), { port: 0 });
    const first = await httpRequest(server.url, '/catalog/movie/big.json');
    expect(first.json().metas).toHaveLength(100);
    expect(pool.given).toEqual([pool.taken[0]]);
    const second = await httpRequest(server.url, '/catalog/movie/big/skip=100.json');
    expect(second.json().metas[0].id).toBe('tt100');
    expect(pool.taken[1]).toBe(pool.taken[0]); // the same memory, written again
    // What the first client received was not overwritten by the second page.
    expect(first.json().metas[0].id).toBe('tt0');
  });

  it('stay with the response cache when it keeps the answer, and go back at once when compressed', async () => {
    const pool = watchedPool();
    server = await listen(createRequestHandler(pooledAddon(pool)), { port: 0 });
    await httpRequest(server.url, '/catalog/movie/big.json'); // first request: not kept
    await httpRequest(server.url, '/catalog/movie/big.json'); // second: kept in the cache
    expect(pool.taken).toHaveLength(2);
    expect(pool.given).toEqual([pool.taken[0]]);
    const cached = await httpRequest(server.url, '/catalog/movie/big.json');
    expect(cached.json().metas[99].id).toBe('tt99');
    expect(pool.taken).toHaveLength(2); // answered from the cache

    const gzip = await httpRequest(server.url, '/catalog/movie/big/skip=100.json', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(pool.given.at(-1)).toBe(pool.taken.at(-1));
  });

  it('are given back once even when released twice, and lists copied into an answer go back at once', () => {
    const pool = watchedPool();
    const list = allocRawJsonList(2, pool);
    list.bytes.write('[]');
    const raw = list.done(0);
    raw.release?.();
    raw.release?.();
    expect(pool.given).toHaveLength(1);
    expect(pool.take(10)).toBe(pool.taken[0]);
  });
});
