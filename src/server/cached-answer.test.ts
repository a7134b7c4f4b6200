/**
 * `handler.cached`: the answer of a cached page straight from the request's method, URL and two
 * headers, which the Node adapter asks before building a request view. It must give exactly what
 * the full path gives (the same answer object, 304s, HEAD), nothing for a page that is not cached
 * or no longer fresh, and it must not exist when a hit needs more than its answer (a request log
 * line, a rate limit).
 */
import { describe, expect, it } from 'vitest';
import { createAddon } from '../addon/index.js';
import { createRequestHandler } from './node-handler.js';
import { FLAT_HEADERS } from './respond.js';
import type { CoreRequest, CoreResponse, Logger } from './types.js';

function request(url: string, headers: Record<string, string> = {}, method = 'GET'): CoreRequest {
  return { method, url, header: (name: string) => headers[name] };
}

function library() {
  const state = { version: 1, calls: 0 };
  const addon = createAddon({
    manifest: {
      id: 'org.test.cached',
      version: '1.0.0',
      name: 'Cached',
      description: '',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
    },
    handlers: {
      catalog: async () => {
        state.calls++;
        // Big enough to be compressed.
        const metas = Array.from({ length: 60 }, (_, i) => ({
          id: `tt${1_000_000 + i}`,
          type: 'movie',
          name: `Film ${i} ${'long name '.repeat(8)}`,
        }));
        return { metas, cacheMaxAge: 600 };
      },
    },
    dataVersion: () => state.version,
  });
  return { addon, state };
}

const PATH = '/catalog/movie/films.json';

describe('handler.cached', () => {
  it('answers a cached page with the very answer of the full path, in each encoding', async () => {
    const { addon, state } = library();
    const handle = createRequestHandler(addon, { responseCache: { admitAfter: 1 } });
    expect(handle.cached).toBeTypeOf('function');
    // Not cached yet: the handler is needed.
    expect(handle.cached!('GET', PATH, undefined, undefined)).toBeUndefined();

    const plain = (await handle(request(PATH))) as CoreResponse;
    expect(plain.status).toBe(200);
    const fast = handle.cached!('GET', PATH, undefined, undefined);
    expect(fast).toBe(await handle(request(PATH)));
    expect(fast?.body).toEqual(plain.body);
    expect((fast as unknown as Record<symbol, unknown>)[FLAT_HEADERS]).toEqual(Object.entries(fast!.headers).flat());
    // The headers stay a plain record: the Fetch API takes them as they are.
    expect(new Headers(fast!.headers).get('etag')).toBe(fast!.headers.etag);
    expect(Object.keys({ ...fast })).toEqual(['status', 'headers', 'body']);

    // brotli is compressed once through the full path, then answered from the cache too.
    expect(handle.cached!('GET', PATH, 'gzip, br', undefined)).toBeUndefined();
    const br = await handle(request(PATH, { 'accept-encoding': 'gzip, br' }));
    expect(br.headers['content-encoding']).toBe('br');
    expect(handle.cached!('GET', PATH, 'gzip, br', undefined)).toBe(br);
    // Query strings are not part of the key, as on the full path.
    expect(handle.cached!('HEAD', `${PATH}?x=1`, undefined, undefined)).toBe(fast);
    expect(state.calls).toBe(1);
  });

  it('answers 304 to a matching If-None-Match, and nothing for other methods or a new data version', async () => {
    const { addon, state } = library();
    const handle = createRequestHandler(addon, { responseCache: { admitAfter: 1 } });
    const first = await handle(request(PATH));
    const etag = first.headers.etag!;
    expect(handle.cached!('GET', PATH, undefined, `"other", ${etag}`)?.status).toBe(304);
    expect(handle.cached!('GET', PATH, undefined, '"other"')?.status).toBe(200);
    expect(handle.cached!('POST', PATH, undefined, undefined)).toBeUndefined();
    expect(handle.cached!('GET', '/catalog/movie/other.json', undefined, undefined)).toBeUndefined();
    state.version = 2;
    expect(handle.cached!('GET', PATH, undefined, undefined)).toBeUndefined();
  });

  it('is not offered when a hit needs more than its answer', () => {
    const { addon } = library();
    const lines: Logger = { requests: true, info() {}, error() {} };
    expect(createRequestHandler(addon, { logger: lines }).cached).toBeUndefined();
    expect(createRequestHandler(addon, { rateLimit: { perMinute: 60 } }).cached).toBeUndefined();
    expect(createRequestHandler(addon, { responseCache: false }).cached).toBeUndefined();
    const quiet: Logger = { requests: false, info() {}, error() {} };
    expect(createRequestHandler(addon, { logger: quiet }).cached).toBeTypeOf('function');
  });
});
