/**
 * Proves the real-client harness (test/helpers/stremio-client.ts) against a hand-written add-on on
 * node:http, independent of our SDK and server, and documents what the real client does with
 * what an add-on answers (see ../shared/reference/client-behaviour.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const GENRES = ['Rock & Roll', 'Comédie', 'Drama'];
const SPECIAL_NAMES: Record<number, string> = { 7: 'Amélie à Paris', 42: '東京物語' };

interface Film {
  id: string;
  type: 'movie';
  name: string;
  poster: string;
  genres: string[];
}

const FILMS: Film[] = Array.from({ length: 250 }, (_, i) => ({
  id: `hx:${i}`,
  type: 'movie',
  name: SPECIAL_NAMES[i] ?? `Film ${i}`,
  poster: `https://img.example.com/hx/${i}.jpg`,
  genres: [GENRES[i % GENRES.length]!],
}));

const MANIFEST = {
  id: 'org.marquee.harness',
  version: '1.0.0',
  name: 'Harness',
  description: 'A hand-written add-on that proves the real-client harness',
  types: ['movie'],
  resources: ['catalog', 'meta', 'stream'],
  idPrefixes: ['hx:'],
  catalogs: [
    {
      type: 'movie',
      id: 'films',
      name: 'Films',
      extra: [{ name: 'genre', options: GENRES }, { name: 'search' }, { name: 'skip' }],
    },
    { type: 'movie', id: 'relative-poster', name: 'One relative poster', extra: [{ name: 'skip' }] },
    { type: 'movie', id: 'two-wrappers', name: 'Two wrapper keys' },
  ],
};

const STREAMS = [
  { url: 'https://cdn.example.com/hx7-1080.mp4', name: '1080p' },
  { url: 'https://cdn.example.com/hx7-720.mp4', name: '720p' },
  { url: 'not a url', name: 'broken' },
];

function preview({ id, type, name, poster }: Film): Omit<Film, 'genres'> {
  return { id, type, name, poster };
}

/** `/catalog/movie/films/genre=X&skip=100.json` → extras as a map (names assumed unique here). */
function readExtras(segment: string | undefined): Map<string, string> {
  const extras = new Map<string, string>();
  for (const pair of segment ? segment.split('&') : []) {
    const [name = '', value = ''] = pair.split('=');
    extras.set(decodeURIComponent(name), decodeURIComponent(value));
  }
  return extras;
}

function catalog(id: string, extras: Map<string, string>): unknown {
  const skip = Number(extras.get('skip') ?? '0');
  if (id === 'films') {
    const genre = extras.get('genre');
    const search = extras.get('search')?.toLocaleLowerCase();
    const hits = FILMS.filter(
      (f) =>
        (genre === undefined || f.genres.includes(genre)) &&
        (search === undefined || f.name.toLocaleLowerCase().includes(search)),
    );
    return { metas: hits.slice(skip, skip + 100).map(preview) };
  }
  if (id === 'relative-poster') {
    const page = FILMS.slice(0, 5).map(preview);
    page[2] = { ...page[2]!, poster: '/posters/hx2.jpg' };
    return { metas: skip === 0 ? page : [] };
  }
  if (id === 'two-wrappers') return { metas: [preview(FILMS[0]!)], streams: [] };
  return undefined;
}

function route(path: string): unknown {
  if (path === '/manifest.json') return MANIFEST;
  const match = /^\/(catalog|meta|stream)\/movie\/([^/]+?)(?:\/([^/]+))?\.json$/.exec(path);
  if (match === null) return undefined;
  const [, resource, rawId = '', extras] = match;
  const id = decodeURIComponent(rawId);
  if (resource === 'catalog') return catalog(id, readExtras(extras));
  if (id !== 'hx:7') return undefined;
  if (resource === 'stream') return { streams: STREAMS };
  const released = (day: number) => `2001-04-${day}T00:00:00.000Z`;
  const videos = [
    { id: 'hx:7:1', title: 'Première partie', released: released(25) },
    { id: 'hx:7:2', title: 'Seconde partie', released: released(26) },
  ];
  return { meta: { ...FILMS[7], description: 'Une fille à Montmartre', videos } };
}

let server: Server;
let transportUrl: string;
/** Paths as the add-on received them, to check the harness's own request log against. */
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    served.push(path);
    // Never answered: lets a test see the harness give up with a clear error instead of hanging.
    if (path === '/catalog/movie/hang.json') return;
    const body = req.method === 'GET' ? route(path) : undefined;
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  transportUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/manifest.json`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the real Stremio client against a hand-written add-on', () => {
  let client: StremioClient;

  beforeEach(async () => {
    served.length = 0;
    client = await createStremioClient();
  });
  afterEach(() => client.close());

  it('installs the add-on by URL and holds the normalised descriptor', async () => {
    const installed = await client.installAddon(transportUrl);

    expect(installed.transportUrl).toBe(transportUrl);
    expect(installed.flags).toEqual({ official: false, protected: false });
    expect(installed.manifest).toMatchObject({ id: 'org.marquee.harness', version: '1.0.0', name: 'Harness' });
    expect(installed.manifest.catalogs.map((c) => `${c.type}/${c.id}`)).toEqual([
      'movie/films',
      'movie/relative-poster',
      'movie/two-wrappers',
    ]);
    // The client fills the defaults of every extra.
    expect(installed.manifest.catalogs[0]!.extra).toEqual([
      { name: 'genre', isRequired: false, options: GENRES, optionsLimit: 1 },
      { name: 'search', isRequired: false, options: [], optionsLimit: 1 },
      { name: 'skip', isRequired: false, options: [], optionsLimit: 1 },
    ]);
    expect(client.requestPaths(transportUrl)).toEqual(['/manifest.json']);
  });

  it('pages the catalog to the end: 250 items, skip is the running count, an empty page stops it', async () => {
    await client.installAddon(transportUrl);
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'films' });

    expect(whole.error).toBeNull();
    expect(whole.hasNextPage).toBe(false);
    expect(whole.items.map((item) => item.id)).toEqual(FILMS.map((f) => f.id));
    expect(whole.items[42]).toMatchObject({ name: '東京物語', type: 'movie', poster: FILMS[42]!.poster });
    expect(whole.pages).toBe(4);
    const paths = [
      '/catalog/movie/films.json',
      '/catalog/movie/films/skip=100.json',
      '/catalog/movie/films/skip=200.json',
      '/catalog/movie/films/skip=250.json',
    ];
    expect(whole.requests.map((r) => [r.path.replace(/^.*(?=\/catalog)/, ''), r.status])).toEqual(
      paths.map((p) => [p, 200]),
    );
    // The harness's request log is what the add-on received.
    expect(client.requestPaths(transportUrl)).toEqual(served);
  });

  it('encodes a genre with "&" and non-ASCII letters like encodeURIComponent and holds its items', async () => {
    await client.installAddon(transportUrl);
    const rock = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'films',
      extra: [['genre', 'Rock & Roll']],
    });
    const comedy = await client.loadCatalog({
      transportUrl,
      type: 'movie',
      id: 'films',
      extra: [['genre', 'Comédie']],
    });

    expect(rock.items.map((i) => i.id)).toEqual(FILMS.filter((f) => f.genres[0] === 'Rock & Roll').map((f) => f.id));
    expect(rock.items).toHaveLength(84);
    expect(comedy.items.map((i) => i.id)).toEqual(FILMS.filter((f) => f.genres[0] === 'Comédie').map((f) => f.id));
    expect(client.requestPaths(transportUrl).slice(1)).toEqual([
      '/catalog/movie/films/genre=Rock%20%26%20Roll.json',
      // The next page puts the running count first: extras arrive in no fixed order.
      '/catalog/movie/films/skip=84&genre=Rock%20%26%20Roll.json',
      '/catalog/movie/films/genre=Com%C3%A9die.json',
    ]);
  });

  it('searches with unicode and shows the row of our add-on', async () => {
    await client.installAddon(transportUrl);
    const latin = await client.search('amélie', { addonId: MANIFEST.id });
    const cjk = await client.search('東京');

    expect(latin).toEqual([
      {
        addonId: MANIFEST.id,
        catalogId: 'films',
        type: 'movie',
        name: 'Films',
        items: [expect.objectContaining({ id: 'hx:7', name: 'Amélie à Paris' })],
        error: null,
      },
    ]);
    const ours = cjk.filter((row) => row.addonId === MANIFEST.id);
    expect(ours.map((row) => row.items.map((i) => i.name))).toEqual([['東京物語']]);
    // Stremio's official add-ons are searched too; the harness refuses their hosts.
    expect(cjk.filter((row) => row.addonId !== MANIFEST.id).every((row) => row.error?.includes('blocked'))).toBe(true);
    expect(client.requestPaths(transportUrl).slice(1)).toEqual([
      '/catalog/movie/films/search=am%C3%A9lie.json',
      '/catalog/movie/films/search=%E6%9D%B1%E4%BA%AC.json',
    ]);
  });

  it('opens a meta and lists its streams, dropping the stream whose url is not a URL', async () => {
    await client.installAddon(transportUrl);
    const { meta, metaError, streams, streamGroups } = await client.loadMeta({
      transportUrl,
      type: 'movie',
      id: 'hx:7',
    });

    expect(metaError).toBeNull();
    expect(meta).toMatchObject({ id: 'hx:7', name: 'Amélie à Paris', description: 'Une fille à Montmartre' });
    // The client re-sorts the videos of a meta without seasons: newest release first.
    expect(meta!.videos.map((v) => [v.id, v.title, v.released])).toEqual([
      ['hx:7:2', 'Seconde partie', '2001-04-26T00:00:00Z'],
      ['hx:7:1', 'Première partie', '2001-04-25T00:00:00Z'],
    ]);
    expect(streams.map((s) => [s.name, s.url])).toEqual(STREAMS.slice(0, 2).map((s) => [s.name, s.url]));
    expect(streamGroups.map((g) => g.addonId)).toEqual([MANIFEST.id]);
    expect(client.requestPaths(transportUrl).slice(1)).toEqual([
      '/meta/movie/hx%3A7.json',
      '/stream/movie/hx%3A7.json',
    ]);
  });

  it('drops an item with a relative poster, and counts only the kept items in skip', async () => {
    await client.installAddon(transportUrl);
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'relative-poster' });

    expect(whole.items.map((i) => i.id)).toEqual(['hx:0', 'hx:1', 'hx:3', 'hx:4']);
    expect(client.requestPaths(transportUrl).slice(1)).toEqual([
      '/catalog/movie/relative-poster.json',
      '/catalog/movie/relative-poster/skip=4.json',
    ]);
  });

  it('reports an error for a catalog answer with two wrapper keys', async () => {
    await client.installAddon(transportUrl);
    const page = await client.loadCatalog({ transportUrl, type: 'movie', id: 'two-wrappers' });

    expect(page.items).toEqual([]);
    expect(page.hasNextPage).toBe(false);
    expect(page.error).toMatch(/more than 1 of the unique keys/);
  });

  it('gives each client its own instance: another client has not installed the add-on', async () => {
    await client.installAddon(transportUrl);
    const other = await createStremioClient();
    try {
      type Ctx = { profile: { addons: Array<{ transportUrl: string }> } };
      const installed = (c: StremioClient) => c.getState<Ctx>('ctx').profile.addons.map((a) => a.transportUrl);
      expect(installed(client)).toContain(transportUrl);
      expect(installed(other)).not.toContain(transportUrl);
      expect(other.requests().filter((r) => !r.streamingServer)).toEqual([]);
    } finally {
      other.close();
    }
  });

  it('gives up on an unanswered request with an error naming the wait, the request and the state', async () => {
    const impatient = await createStremioClient({ timeoutMs: 300 });
    try {
      await impatient.installAddon(transportUrl);
      const pending = impatient.loadCatalog({ transportUrl, type: 'movie', id: 'hang' });
      await expect(pending).rejects.toThrow(/gave up after 300 ms waiting for catalog movie\/hang/);
      await expect(pending).rejects.toThrow(/catalog\/movie\/hang\.json -> pending/);
      await expect(pending).rejects.toThrow(/Last state of "discover": .*"type":"Loading"/);
    } finally {
      impatient.close();
    }
  });
});
