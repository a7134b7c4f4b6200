import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon, EXAMPLE_MOVIES, type ExampleMovie } from '../examples/example-addon.js';
import { createAddon } from '../src/addon/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { httpRequest } from './helpers/http.js';

const logs: Record<string, unknown>[] = [];
const logger = {
  info: (r: Record<string, unknown>) => logs.push(r),
  error: (r: Record<string, unknown>) => logs.push({ ...r, level: 'error' }),
};

function manyMovies(n: number): ExampleMovie[] {
  return Array.from({ length: n }, (_, i) => ({
    ...EXAMPLE_MOVIES[i % EXAMPLE_MOVIES.length]!,
    id: `mqex:movie:gen-${i}`,
    name: `Film ${String(i).padStart(3, '0')}`,
  }));
}

let server: RunningServer;
let url: string;

beforeAll(async () => {
  server = await listen(createRequestHandler(createExampleAddon({ movies: manyMovies(250) }), { logger }), { port: 0 });
  url = server.url;
});
afterAll(() => server.close());

describe('manifest and CORS', () => {
  it('serves the manifest with CORS, nosniff and a cache header', async () => {
    const res = await httpRequest(url, '/manifest.json');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('max-age=300, public');
    expect(res.json().id).toBe('org.marquee.example');
  });

  it('answers HEAD with headers and no body', async () => {
    const res = await httpRequest(url, '/manifest.json', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(0);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
  });

  it('answers an OPTIONS preflight', async () => {
    const res = await httpRequest(url, '/catalog/movie/mqex-movies.json', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://web.stremio.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-a',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('GET');
    expect(res.headers['access-control-allow-headers']).toBe('x-a');
  });

  it('refuses other methods with 405 and Allow', async () => {
    const res = await httpRequest(url, '/manifest.json', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('serves the manifest under a config segment', async () => {
    const res = await httpRequest(url, `/${encodeURIComponent('{}')}/manifest.json`);
    expect(res.status).toBe(200);
  });
});

describe('catalogs', () => {
  it('pages by any skip, 100 at most, empty at the end', async () => {
    const first = (await httpRequest(url, '/catalog/movie/mqex-movies.json')).json();
    expect(first.metas).toHaveLength(100);
    const odd = (await httpRequest(url, '/catalog/movie/mqex-movies/skip=230.json')).json();
    expect(odd.metas.map((m: { name: string }) => m.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Film ${230 + i}`),
    );
    const end = (await httpRequest(url, '/catalog/movie/mqex-movies/skip=250.json')).json();
    expect(end).toEqual({ metas: [] });
  });

  it('filters by a genre with & and non-ASCII letters, extras in any order', async () => {
    const a = (
      await httpRequest(url, `/catalog/movie/mqex-movies/genre=${encodeURIComponent('Action & Adventure')}&skip=0.json`)
    ).json();
    const b = (
      await httpRequest(url, `/catalog/movie/mqex-movies/skip=0&genre=${encodeURIComponent('Action & Adventure')}.json`)
    ).json();
    expect(a.metas.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
    for (const m of a.metas) expect(m.genres).toContain('Action & Adventure');
    const c = (await httpRequest(url, `/catalog/movie/mqex-movies/genre=${encodeURIComponent('Comédie')}.json`)).json();
    expect(c.metas.length).toBeGreaterThan(0);
  });

  it('answers a declared genre with no items as an empty list, and a search without hits too', async () => {
    const server2 = await listen(createRequestHandler(createExampleAddon({ movies: EXAMPLE_MOVIES.slice(0, 1) })), {
      port: 0,
    });
    try {
      expect((await httpRequest(server2.url, '/catalog/movie/mqex-movies/genre=Drama.json')).json()).toEqual({
        metas: [],
      });
      expect((await httpRequest(server2.url, '/catalog/movie/mqex-movies/search=zzzz.json')).json()).toEqual({
        metas: [],
      });
    } finally {
      await server2.close();
    }
  });

  it('reads + as a space in extras', async () => {
    const res = (await httpRequest(url, '/catalog/movie/mqex-movies/search=Film+007.json')).json();
    expect(res.metas.map((m: { name: string }) => m.name)).toEqual(['Film 007']);
  });

  it.each([
    ['/catalog/movie/nope.json', 'an undeclared catalog'],
    ['/catalog/series/mqex-movies.json', 'a declared id under another type'],
    ['/catalog/movie/mqex-movies/year=2000.json', 'an undeclared extra'],
    ['/catalog/movie/mqex-movies/skip=-1.json', 'a negative skip'],
    ['/catalog/movie/mqex-movies/skip=1e3.json', 'a skip that is not an integer'],
    ['/catalog/movie/mqex-movies/date=2026-01-01.json', 'date on a catalog that does not declare it'],
    ['/catalog/tv/mqex-channels/date=2026-02-30.json', 'an impossible day'],
    ['/meta/movie/tt0000001.json', 'an id outside idPrefixes'],
    ['/meta/series/mqex:movie:sintel.json', 'a type the manifest does not route'],
    ['/subtitles/movie/mqex:x.json', 'an undeclared resource'],
    ['/nothing/here', 'a path that is not an add-on path'],
  ])('answers 404 Not found for %s (%s)', async (path) => {
    const res = await httpRequest(url, path);
    expect(res.status).toBe(404);
    expect(res.text()).toBe('Not found');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers malformed percent-encoding with 400, not a crash', async () => {
    const res = await httpRequest(url, '/catalog/movie/mqex-movies/genre=%E0%A4%A.json');
    expect(res.status).toBe(400);
  });
});

describe('live-TV guide', () => {
  it('answers a guide day with metasDetailed, guide cache headers and the day window', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const res = await httpRequest(url, `/catalog/tv/mqex-channels/date=${day}.json`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(
      'max-age=300, stale-while-revalidate=1800, stale-if-error=604800, public',
    );
    const [channel] = res.json().metasDetailed;
    expect(channel.behaviorHints).toEqual({ isLive: true, hasScheduledVideos: true });
    const start = Date.parse(`${day}T00:00:00.000Z`);
    for (const v of channel.videos) {
      expect(Date.parse(v.endTime)).toBeGreaterThan(start);
      expect(Date.parse(v.startTime)).toBeLessThan(start + 86_400_000 - 1);
    }
    // 90-minute slots aligned to the epoch: 16 whole slots per day, none crossing midnight
    expect(channel.videos).toHaveLength(16);
    const next = await httpRequest(url, `/catalog/tv/mqex-channels/date=${day}&skip=1.json`);
    expect(next.json()).toEqual({ metasDetailed: [] });
  });

  it('serves the channel list without a date as metas', async () => {
    const res = (await httpRequest(url, '/catalog/tv/mqex-channels.json')).json();
    expect(Object.keys(res)).toEqual(['metas']);
  });

  it('answers streams by channel id, and { streams: [] } for a programme id', async () => {
    const ok = (await httpRequest(url, `/stream/tv/${encodeURIComponent('mqex:tv:classics')}.json`)).json();
    expect(ok.streams).toHaveLength(1);
    const none = (
      await httpRequest(url, `/stream/tv/${encodeURIComponent('mqex:tv:classics:epg:2026-01-01T00:00:00.000Z')}.json`)
    ).json();
    expect(none).toEqual({ streams: [] });
  });
});

describe('compression', () => {
  it('compresses big answers with brotli or gzip as accepted, and not small ones', async () => {
    const path = '/catalog/movie/mqex-movies.json';
    const plain = await httpRequest(url, path);
    const br = await httpRequest(url, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await httpRequest(url, path, { headers: { 'accept-encoding': 'gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.body.equals(plain.body)).toBe(true);
    expect(gz.body.equals(plain.body)).toBe(true);
    expect(br.wireBytes).toBeLessThan(plain.wireBytes / 3);
    expect(br.headers.vary).toBe('Accept-Encoding');
    const small = await httpRequest(url, '/catalog/movie/mqex-movies/skip=249.json', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('answers If-None-Match with 304', async () => {
    const first = await httpRequest(url, '/manifest.json');
    const again = await httpRequest(url, '/manifest.json', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
  });
});

describe('failures', () => {
  it('turns a handler failure into a 500 JSON without internals, logged with a request id', async () => {
    const addon = createAddon({
      manifest: {
        id: 'org.test.fail',
        version: '1.0.0',
        name: 'Fail',
        description: 'x',
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'boom', name: 'Boom' }],
      },
      handlers: {
        catalog: () => {
          throw new Error('database password is hunter2');
        },
      },
    });
    const local: Record<string, unknown>[] = [];
    const s = await listen(
      createRequestHandler(addon, {
        logger: { info: (r) => local.push(r), error: (r) => local.push({ ...r, level: 'error' }) },
      }),
      { port: 0 },
    );
    try {
      const res = await httpRequest(s.url, '/catalog/movie/boom.json');
      expect(res.status).toBe(500);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(body.error.code).toBe('HANDLER_FAILED');
      expect(res.text()).not.toContain('hunter2');
      expect(res.text()).not.toContain('at ');
      const logged = local.find((r) => r.level === 'error');
      expect(logged?.requestId).toBe(body.error.requestId);
    } finally {
      await s.close();
    }
  });

  it('refuses a handler answer over 100 items in development mode', async () => {
    const addon = createAddon({
      manifest: {
        id: 'org.test.big',
        version: '1.0.0',
        name: 'Big',
        description: 'x',
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'big', name: 'Big' }],
      },
      handlers: {
        catalog: () => ({
          metas: Array.from({ length: 101 }, (_, i) => ({ id: `x${i}`, type: 'movie', name: `X${i}` })),
        }),
      },
    });
    await expect(addon.handle({ resource: 'catalog', type: 'movie', id: 'big', extra: [] })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });

  it('never logs the config segment', async () => {
    logs.length = 0;
    await httpRequest(url, `/${encodeURIComponent('{"token":"s3cret"}')}/catalog/movie/mqex-movies.json`);
    expect(JSON.stringify(logs)).not.toContain('s3cret');
    expect(logs.some((l) => String(l.path).startsWith('/{config}/catalog/'))).toBe(true);
  });
});

describe('landing page', () => {
  it('shows the add-on with an install link and escapes every string', async () => {
    const addon = createAddon({
      manifest: {
        id: 'org.test.xss',
        version: '1.0.0',
        name: '<script>alert(1)</script>',
        description: '"><img src=x onerror=alert(1)>',
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'c', name: '<b>cat</b>' }],
      },
      handlers: { catalog: () => ({ metas: [] }) },
    });
    const s = await listen(createRequestHandler(addon), { port: 0 });
    try {
      const res = await httpRequest(s.url, '/', { headers: { host: 'example.org:7000' } });
      expect(res.status).toBe(200);
      const page = res.text();
      expect(page).not.toContain('<script>alert');
      expect(page).not.toContain('<img src=x');
      expect(page).not.toContain('<b>cat');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      // Plain HTTP on a host that is not this machine: no stremio:// link, the HTTPS advice instead.
      expect(page).not.toContain('stremio://');
      expect(page).toContain('Your TV or phone needs HTTPS');
      expect(page).toContain('value="http://example.org:7000/manifest.json"');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const evil = await httpRequest(s.url, '/', { headers: { host: '"><script>x</script>' } });
      expect(evil.text()).not.toContain('<script>x');
    } finally {
      await s.close();
    }
  });
});

describe('rate limiting', () => {
  it('is off by default and answers 429 with Retry-After past the limit when on', async () => {
    const s = await listen(createRequestHandler(createExampleAddon(), { rateLimit: { perMinute: 60, burst: 3 } }), {
      port: 0,
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await httpRequest(s.url, '/manifest.json')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const limited = await httpRequest(s.url, '/manifest.json');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await s.close();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await httpRequest(url, '/manifest.json')).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
