/**
 * Requests of a path whose answer is being computed wait for it (core.ts, single flight) and are
 * answered from that answer, its compression shared: the handler runs once for a crowd, whether
 * the answer is kept in the response cache or not (no cache, too large for it). A failed first
 * answer lets the others compute their own, and a new data version is a new flight.
 */
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createAddon } from '../addon/index.js';
import { createRequestHandler } from './node-handler.js';
import type { CoreRequest, CoreResponse } from './types.js';

function request(url: string, encoding?: string): CoreRequest {
  return {
    method: 'GET',
    url,
    header: (name: string) => (name === 'accept-encoding' ? encoding : undefined),
  };
}

/** A catalog whose handler waits for `gate` and counts its calls; `fail` makes the next call throw. */
function slowAddon(options: { cacheMaxAge?: number } = {}) {
  const state = { calls: 0, fail: false, version: 1, open: () => {}, seen: [] as number[] };
  let gate = Promise.resolve();
  const close = () => {
    gate = new Promise<void>((resolve) => {
      state.open = resolve;
    });
  };
  const addon = createAddon({
    manifest: {
      id: 'org.test.flight',
      version: '1.0.0',
      name: 'Flight',
      description: '',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films', extra: [{ name: 'skip' }] }],
    },
    handlers: {
      catalog: async () => {
        state.calls++;
        state.seen.push(state.version);
        const failing = state.fail;
        state.fail = false;
        await gate;
        if (failing) throw new Error('the first one fails');
        // Big enough to be compressed.
        const metas = Array.from({ length: 100 }, (_, i) => ({
          id: `tt${1_000_000 + i}`,
          type: 'movie',
          name: `Film ${i} ${'long name '.repeat(10)}`,
        }));
        return { metas, ...(options.cacheMaxAge !== undefined ? { cacheMaxAge: options.cacheMaxAge } : {}) };
      },
    },
    dataVersion: () => state.version,
  });
  return { addon, state, close };
}

async function body(response: CoreResponse | Promise<CoreResponse>): Promise<string> {
  const r = await response;
  const bytes = Buffer.from(r.body as Uint8Array);
  return (r.headers['content-encoding'] === 'br' ? brotliDecompressSync(bytes) : bytes).toString('utf8');
}

describe('single flight', () => {
  it('runs the handler once for requests that come while it runs, and compresses once for them', async () => {
    const { addon, state, close } = slowAddon();
    const handle = createRequestHandler(addon);
    close();
    const crowd = Array.from({ length: 20 }, (_, i) =>
      handle(request('/catalog/movie/films.json', i % 2 === 0 ? 'br' : undefined)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.open();
    const responses = await Promise.all(crowd);
    expect(state.calls).toBe(1);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const texts = await Promise.all(responses.map((r) => body(r)));
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!).metas).toHaveLength(100);
    // Every br answer is the one compressed body, every plain one the one serialized body.
    const br = responses.filter((r) => r.headers['content-encoding'] === 'br').map((r) => r.body);
    expect(br).toHaveLength(10);
    expect(br.every((b) => b === br[0])).toBe(true);
    // And the answer is cached from then on.
    await handle(request('/catalog/movie/films.json'));
    expect(state.calls).toBe(1);
  });

  it('lets the waiting requests compute their own when the first one fails', async () => {
    const { addon, state, close } = slowAddon();
    const handle = createRequestHandler(addon, { logger: { info: () => {}, error: () => {} } });
    close();
    state.fail = true;
    const crowd = Array.from({ length: 5 }, () => handle(request('/catalog/movie/films.json')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.open();
    const statuses = (await Promise.all(crowd)).map((r) => r.status);
    expect(statuses[0]).toBe(500);
    expect(statuses.slice(1).every((s) => s === 200)).toBe(true);
    // The first waiting request computed it; the others waited for that one.
    expect(state.calls).toBe(2);
  });

  it('does not hold requests of another path or another data version', async () => {
    const { addon, state, close } = slowAddon();
    const handle = createRequestHandler(addon);
    close();
    const first = handle(request('/catalog/movie/films.json'));
    const other = handle(request('/catalog/movie/films/skip=100.json'));
    state.version = 2;
    const newer = handle(request('/catalog/movie/films.json'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.seen).toEqual([1, 1, 2]);
    expect(state.calls).toBe(3);
    state.open();
    expect((await Promise.all([first, other, newer])).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('shares an answer that is not cached (no response cache) with the requests that waited for it', async () => {
    const { addon, state, close } = slowAddon();
    const handle = createRequestHandler(addon, { responseCache: false });
    close();
    const crowd = Array.from({ length: 4 }, (_, i) =>
      handle(request('/catalog/movie/films.json', i % 2 === 0 ? 'br' : undefined)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.open();
    const responses = await Promise.all(crowd);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(state.calls).toBe(1);
    const br = responses.filter((r) => r.headers['content-encoding'] === 'br').map((r) => r.body);
    expect(br).toHaveLength(2);
    expect(br[0]).toBe(br[1]);
    // Not cached: the next request computes it again.
    await handle(request('/catalog/movie/films.json'));
    expect(state.calls).toBe(2);
  });

  it('shares an answer too large for the response cache', async () => {
    const { addon, state, close } = slowAddon();
    const handle = createRequestHandler(addon, { responseCache: { maxBytes: 1024 } });
    close();
    const crowd = Array.from({ length: 8 }, () => handle(request('/catalog/movie/films.json')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    state.open();
    const texts = await Promise.all(crowd.map((r) => body(r)));
    expect(state.calls).toBe(1);
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!).metas).toHaveLength(100);
  });
});
