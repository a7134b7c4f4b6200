/**
 * The real Stremio client core against the library add-on (imported from a generated JSON
 * library, served by our SDK and server): install by URL, page a 250-item catalog to its end
 * with none dropped, filter by genres with `&` and an accent, search in unicode, open a series
 * with its episodes and the streams of one episode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../src/library/index.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';
import { BASE, generatedLibrary, type LibraryFixture, libraryFixture } from './library-helpers.js';

const AMELIE = {
  id: 'tt0211915',
  type: 'movie',
  name: "Le Fabuleux Destin d'Amélie Poulain",
  released: '2001-04-25',
  genres: ['Comédie'],
  poster: 'https://images.example/amelie.jpg',
  streams: [{ url: 'https://media.example/amelie.mp4', name: 'Example' }],
};
const ITEMS: Record<string, unknown>[] = [...generatedLibrary(249, 5), AMELIE];
const VISIBLE_MOVIES = ITEMS.filter((i) => i.type === 'movie' && i.adult !== true);

let fx: LibraryFixture;
let client: StremioClient;
let transportUrl: string;

beforeAll(async () => {
  fx = libraryFixture();
  await importLibrary(fx.store, { files: [fx.write('library.json', ITEMS)] });
  const server = await fx.serve();
  transportUrl = `${server.url}/manifest.json`;
  client = await createStremioClient();
});
afterAll(async () => {
  client?.close();
  await fx.close();
});

describe('the library add-on in the real client', () => {
  it('installs by URL with its catalogs and genres', async () => {
    const descriptor = await client.installAddon(transportUrl);
    expect(descriptor.manifest.id).toBe(BASE.id);
    const movies = descriptor.manifest.catalogs.find((c) => c.id === 'movies')!;
    expect(movies.extra.find((e) => e.name === 'genre')?.options).toContain('Action & Adventure');
    expect(descriptor.manifest.catalogs.map((c) => `${c.type}/${c.id}`)).toEqual(['movie/movies', 'series/series']);
  });

  it('pages the movie catalog to its end with zero items dropped', async () => {
    expect(VISIBLE_MOVIES).toHaveLength(250);
    const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'movies' });
    expect(whole.error).toBeNull();
    expect(whole.items).toHaveLength(250);
    expect(new Set(whole.items.map((i) => i.id))).toEqual(new Set(VISIBLE_MOVIES.map((m) => m.id)));
    expect(client.requestPaths(transportUrl).filter((p) => p.startsWith('/catalog/movie/'))).toEqual([
      '/catalog/movie/movies.json',
      '/catalog/movie/movies/skip=100.json',
      '/catalog/movie/movies/skip=200.json',
      '/catalog/movie/movies/skip=250.json',
    ]);
  });

  it('filters by a genre containing & and by one with an accent', async () => {
    client.clearRequests();
    const adventure = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'movies',
      extra: [['genre', 'Action & Adventure']],
    });
    const expected = VISIBLE_MOVIES.filter((m) => (m.genres as string[]).includes('Action & Adventure'));
    expect(adventure.error).toBeNull();
    expect(new Set(adventure.items.map((i) => i.id))).toEqual(new Set(expected.map((m) => m.id)));
    expect(client.requestPaths(transportUrl)[0]).toBe('/catalog/movie/movies/genre=Action%20%26%20Adventure.json');

    const comedie = await client.loadWholeCatalog({
      transportUrl,
      type: 'movie',
      id: 'movies',
      extra: [['genre', 'Comédie']],
    });
    expect(comedie.error).toBeNull();
    expect(comedie.items.map((i) => i.id)).toContain('tt0211915');
    expect(comedie.items).toHaveLength(VISIBLE_MOVIES.filter((m) => (m.genres as string[]).includes('Comédie')).length);
  });

  it('searches in unicode, accent- and case-insensitively, with a partial last word', async () => {
    const rows = await client.search('AMELIE poul', { addonId: BASE.id });
    const movieRow = rows.find((r) => r.type === 'movie')!;
    expect(movieRow.error).toBeNull();
    expect(movieRow.items.map((i) => i.name)).toEqual(["Le Fabuleux Destin d'Amélie Poulain"]);
  });

  it('opens a series with its episodes and plays an episode', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'series', id: 'mq:show-2', videoId: 'mq:show-2:1:2' });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe('Show 2');
    expect(result.meta?.videos.map((v) => v.id)).toEqual(['mq:show-2:1:1', 'mq:show-2:1:2', 'mq:show-2:1:3']);
    expect(result.streams.map((s) => s.url)).toEqual(['https://media.example/show-2/2.mp4']);
  });

  it('opens a movie and its streams', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'movie', id: 'tt0211915' });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe("Le Fabuleux Destin d'Amélie Poulain");
    expect(result.streams.map((s) => s.url)).toEqual(['https://media.example/amelie.mp4']);
  });
});
