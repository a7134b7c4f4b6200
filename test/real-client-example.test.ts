/**
 * The real Stremio client core against the example add-on served by our SDK and server:
 * install by URL, page a catalog to its end, filter by genres with `&` and accents, search in
 * unicode, open a meta and its streams. Asserts what the client ends up holding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon, EXAMPLE_MOVIES, type ExampleMovie } from '../examples/example-addon.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const MOVIES: ExampleMovie[] = [
  ...EXAMPLE_MOVIES,
  ...Array.from({ length: 244 }, (_, i) => ({
    ...EXAMPLE_MOVIES[i % EXAMPLE_MOVIES.length]!,
    id: `mqex:movie:extra-${i}`,
    name: `Extra Film ${String(i).padStart(3, '0')}`,
  })),
];

let server: RunningServer;
let client: StremioClient;
let transportUrl: string;

beforeAll(async () => {
  server = await listen(createRequestHandler(createExampleAddon({ movies: MOVIES })), { port: 0 });
  transportUrl = `${server.url}/manifest.json`;
  client = await createStremioClient();
});
afterAll(async () => {
  client.close();
  await server.close();
});

describe('the example add-on in the real client', () => {
  it('installs by URL with every catalog', async () => {
    const descriptor = await client.installAddon(transportUrl);
    expect(descriptor.manifest.id).toBe('org.marquee.example');
    expect(descriptor.manifest.catalogs.map((c: { id: string }) => c.id)).toEqual(['mqex-movies', 'mqex-channels']);
  });

  it('pages the movie catalog to its end with zero items dropped', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'mqex-movies' });
    expect(whole.error).toBeNull();
    expect(whole.items).toHaveLength(MOVIES.length);
    expect(whole.items.map((i) => i.id)).toEqual(MOVIES.map((m) => m.id));
    expect(client.requestPaths(transportUrl).filter((p) => p.startsWith('/catalog/movie/'))).toEqual([
      '/catalog/movie/mqex-movies.json',
      '/catalog/movie/mqex-movies/skip=100.json',
      '/catalog/movie/mqex-movies/skip=200.json',
      '/catalog/movie/mqex-movies/skip=250.json',
    ]);
  });

  it('filters by a genre containing & and by one with an accent', async () => {
    client.clearRequests();
    const adventure = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'mqex-movies',
      extra: [['genre', 'Action & Adventure']],
    });
    const expected = MOVIES.filter((m) => m.genres.includes('Action & Adventure'));
    expect(adventure.items.map((i) => i.id)).toEqual(expected.map((m) => m.id));
    expect(client.requestPaths(transportUrl)[0]).toBe('/catalog/movie/mqex-movies/genre=Action%20%26%20Adventure.json');

    const comedie = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'mqex-movies',
      extra: [['genre', 'Comédie']],
    });
    expect(comedie.items).toHaveLength(MOVIES.filter((m) => m.genres.includes('Comédie')).length);
  });

  it('searches in unicode, accent-insensitively', async () => {
    const rows = await client.search('évasion', { addonId: 'org.marquee.example' });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.error).toBeNull();
    expect(rows[0]!.items[0]!.name).toBe('Grande Évasion');
  });

  it('opens a movie meta and its streams', async () => {
    const sintel = EXAMPLE_MOVIES.find((m) => m.name === 'Sintel')!;
    const result = await client.loadMeta({ transportUrl, type: 'movie', id: sintel.id });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe('Sintel');
    expect(result.streams.map((s) => s.url)).toEqual([sintel.stream]);
  });

  it('opens the live channel with its programmes and its stream', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: 'mqex:tv:classics' });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe('Marquee Classics');
    expect(result.meta?.videos.length).toBeGreaterThan(10);
    expect(result.streams).toHaveLength(1);
  });
});
