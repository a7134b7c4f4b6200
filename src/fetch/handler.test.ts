/**
 * The neutral entry in-process, Request in and Response out, as a Worker runs it: gzip kept in
 * the response cache, the configure page making Web Crypto tokens that the manifest and Node's
 * codec open, a tampered token refused, a form over its limit refused while it streams in. And
 * Node's request core serving the same add-on with its asynchronous codec.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTokenCodec, createRequestHandler as nodeHandler } from '../server/index.js';
import {
  createAddon,
  createRequestHandler,
  createWebTokenCodec,
  generateKeyRing,
  type MetaPreview,
  toFetchHandler,
} from './index.js';

const ring = generateKeyRing('k1');
const FILMS: MetaPreview[] = Array.from({ length: 30 }, (_, i) => ({
  id: `tt${1000 + i}`,
  type: 'movie',
  name: `Film ${i}`,
  description: 'A film long enough to make the page worth compressing.',
}));

function films() {
  return createAddon({
    manifest: {
      id: 'org.test.neutral',
      version: '1.0.0',
      name: 'Neutral',
      description: '',
      resources: ['catalog', 'stream'],
      types: ['movie'],
      idPrefixes: ['tt'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
      behaviorHints: { configurable: true },
      config: [{ key: 'pin', type: 'password', title: 'PIN' }],
    },
    configCodec: createWebTokenCodec(ring, 'org.test.neutral'),
    handlers: {
      catalog: () => ({ metas: FILMS }),
      stream: ({ id, config }) => ({ streams: [{ url: `https://cdn.example/${id}.mp4?pin=${config.pin ?? ''}` }] }),
    },
  });
}

const BASE = 'https://films.example.workers.dev';
const get = (fetch: (r: Request) => Promise<Response>, path: string, headers: Record<string, string> = {}) =>
  fetch(new Request(`${BASE}${path}`, { headers }));

describe('stremio-marquee/fetch in process', () => {
  const fetch = toFetchHandler(createRequestHandler(films()));

  it('gzips a large answer once and answers it again from the cache, with its ETag', async () => {
    const first = await get(fetch, '/catalog/movie/films.json', { 'accept-encoding': 'gzip, br' });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const body = JSON.parse(gunzipSync(new Uint8Array(await first.arrayBuffer())).toString('utf8'));
    expect(body.metas).toHaveLength(30);
    const again = await get(fetch, '/catalog/movie/films.json', { 'accept-encoding': 'gzip' });
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    const plain = await get(fetch, '/catalog/movie/films.json');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(((await plain.json()) as { metas: unknown[] }).metas).toHaveLength(30);
    const head = await fetch(new Request(`${BASE}/catalog/movie/films.json`, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('makes an encrypted install link on its configure page, which the add-on and Node open', async () => {
    const page = await get(fetch, '/configure');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const made = await fetch(
      new Request(`${BASE}/configure`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE },
        body: 'cfg_pin=4321',
      }),
    );
    const html = await made.text();
    expect(made.status, html).toBe(200);
    const token = decodeURIComponent(/films\.example\.workers\.dev\/(v1\.[^/"]+)\/manifest\.json/.exec(html)![1]!);
    expect(token).not.toContain('4321');
    expect(createTokenCodec(ring, 'org.test.neutral').decode(token)).toEqual({ pin: '4321' });
    const segment = encodeURIComponent(token);
    expect((await get(fetch, `/${segment}/manifest.json`)).status).toBe(200);
    const streams = (await (await get(fetch, `/${segment}/stream/movie/tt1001.json`)).json()) as {
      streams: { url: string }[];
    };
    expect(streams.streams[0]?.url).toBe('https://cdn.example/tt1001.mp4?pin=4321');
    // The reconfigure page opens the token too (the PIN itself is never shown again).
    const again = await get(fetch, `/${segment}/configure`);
    expect(again.status).toBe(200);
    expect(await again.text()).not.toContain('4321');
    const tampered = `${segment.slice(0, -2)}${segment.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await get(fetch, `/${tampered}/manifest.json`)).status).toBe(404);
    expect((await get(fetch, `/${tampered}/configure`)).status).toBe(404);
  });

  it('refuses a form over its limit while it streams in, with no Content-Length to go by', async () => {
    const chunk = new TextEncoder().encode(`cfg_pin=${'1'.repeat(16 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const refused = await fetch(
      new Request(`${BASE}/configure`, {
        method: 'POST',
        headers: { origin: BASE },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/bad request/i);
    expect(sent).toBeLessThan(200 * 1024);
  });
});

describe("Node's request core with the Web Crypto codec", () => {
  it('answers a configured manifest and streams (the codec awaited), and 404 for a foreign token', async () => {
    const handle = nodeHandler(films());
    const request = (url: string) => ({ method: 'GET', url, header: () => undefined });
    const token = encodeURIComponent(await createWebTokenCodec(ring, 'org.test.neutral').encode({ pin: '7' }));
    expect((await handle(request(`/${token}/manifest.json`))).status).toBe(200);
    const streams = await handle(request(`/${token}/stream/movie/tt1002.json`));
    expect(JSON.parse(Buffer.from(streams.body).toString('utf8')).streams[0].url).toBe(
      'https://cdn.example/tt1002.mp4?pin=7',
    );
    const foreign = encodeURIComponent(
      createTokenCodec(generateKeyRing('k1'), 'org.test.neutral').encode({ pin: '7' }),
    );
    expect((await handle(request(`/${foreign}/manifest.json`))).status).toBe(404);
  });
});
