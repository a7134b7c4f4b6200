/**
 * Library catalogs over HTTP with a generated library of 263 movies and 40 series: manifest
 * (catalogs, genres, resources, idPrefixes), paging (stable, any skip, empty at the end), every
 * declared genre, declared catalogs and sort orders, adult items, cache hints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../src/library/index.js';
import { GENRES, generatedLibrary, type LibraryFixture, libraryFixture } from './library-helpers.js';

const ITEMS = generatedLibrary(260, 40);
const MOVIES = ITEMS.filter((i) => i.type === 'movie' && i.adult !== true);
let fx: LibraryFixture;

beforeAll(async () => {
  fx = libraryFixture();
  await importLibrary(fx.store, { files: [fx.write('library.json', ITEMS)] });
});
afterAll(() => fx.close());

/** Every page of a catalog from skip 0 until an empty page, advancing by what each page held. */
async function pageAll(path: string, extra = ''): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  for (;;) {
    const parts = [extra, ids.length > 0 ? `skip=${ids.length}` : ''].filter((p) => p !== '').join('&');
    const { status, body } = await fx.get(`${path}${parts ? `/${parts}` : ''}.json`);
    expect(status).toBe(200);
    pages.push(body.metas.length);
    if (body.metas.length === 0) return { ids, pages };
    ids.push(...body.metas.map((m: { id: string }) => m.id));
    expect(pages.length).toBeLessThan(20);
  }
}

const released = (m: Record<string, unknown>) =>
  typeof m.released === 'string' ? Date.parse(m.released) : Number.NEGATIVE_INFINITY;

describe('derived catalogs', () => {
  beforeAll(() => fx.serve());

  it('declares one newest-first feed per type with the genres that have items, and routes the stored ids', async () => {
    const { body: manifest } = await fx.get('/manifest.json');
    expect(manifest.catalogs.map((c: { type: string; id: string }) => `${c.type}/${c.id}`)).toEqual([
      'movie/movies',
      'series/series',
    ]);
    const movies = manifest.catalogs[0];
    const genreExtra = movies.extra.find((e: { name: string }) => e.name === 'genre');
    expect(genreExtra.options).toEqual([...GENRES].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(movies.genres).toEqual(genreExtra.options);
    // "Late Night" has only adult items: not offered.
    expect(genreExtra.options).not.toContain('Late Night');
    expect(movies.extra.map((e: { name: string }) => e.name)).toEqual(['search', 'genre', 'skip']);
    expect(manifest.types).toEqual(['movie', 'series']);
    const meta = manifest.resources.find((r: { name?: string }) => r.name === 'meta');
    expect(meta).toEqual({ name: 'meta', types: ['movie', 'series'], idPrefixes: ['mq:', 'tt'] });
    expect(manifest.resources.map((r: string | { name: string }) => (typeof r === 'string' ? r : r.name))).toEqual([
      'catalog',
      'meta',
      'stream',
    ]);
  });

  it('pages the feed to an empty page with every item once, newest first, ties by id', async () => {
    const { ids, pages } = await pageAll('/catalog/movie/movies');
    expect(pages).toEqual([100, 100, 60, 0]);
    const expected = [...MOVIES]
      .sort((a, b) => released(b) - released(a) || String(a.id).localeCompare(String(b.id)))
      .map((m) => m.id);
    expect(ids).toEqual(expected);
  });

  it('answers any skip with the same order: overlapping windows agree', async () => {
    const { ids } = await pageAll('/catalog/movie/movies');
    for (const skip of [1, 37, 99, 100, 101, 199, 259]) {
      const { body } = await fx.get(`/catalog/movie/movies/skip=${skip}.json`);
      expect(body.metas.map((m: { id: string }) => m.id)).toEqual(ids.slice(skip, skip + 100));
    }
    for (const skip of [260, 261, 5000]) {
      expect((await fx.get(`/catalog/movie/movies/skip=${skip}.json`)).body).toEqual({ metas: [] });
    }
  });

  it('answers every declared genre, with & and accents, paged to the end', async () => {
    const { body: manifest } = await fx.get('/manifest.json');
    for (const catalog of manifest.catalogs) {
      const options: string[] = catalog.extra.find((e: { name: string }) => e.name === 'genre').options;
      expect(options.length).toBeGreaterThan(0);
      for (const genre of options) {
        const { ids } = await pageAll(`/catalog/${catalog.type}/${catalog.id}`, `genre=${encodeURIComponent(genre)}`);
        const expected = ITEMS.filter(
          (i) => i.type === catalog.type && !i.adult && (i.genres as string[]).includes(genre),
        ).map((i) => i.id);
        expect(ids.length, `${catalog.id} ${genre}`).toBeGreaterThan(0);
        expect(new Set(ids)).toEqual(new Set(expected));
      }
    }
    // Genre with skip in either order of the extras.
    const a = await fx.get('/catalog/movie/movies/genre=Action%20%26%20Adventure&skip=10.json');
    const b = await fx.get('/catalog/movie/movies/skip=10&genre=Action%20%26%20Adventure.json');
    expect(a.body.metas.length).toBeGreaterThan(0);
    expect(a.body).toEqual(b.body);
  });

  it('answers an unknown genre with an empty page', async () => {
    expect((await fx.get('/catalog/movie/movies/genre=Western.json')).body).toEqual({ metas: [] });
  });

  it('serves light previews with long cache hints', async () => {
    const { body, headers } = await fx.get('/catalog/movie/movies.json');
    const preview = body.metas[0];
    expect(Object.keys(preview).sort()).toEqual(
      ['id', 'type', 'name', 'poster', 'genres', 'releaseInfo', 'imdbRating', 'description'].sort(),
    );
    expect(preview).not.toHaveProperty('streams');
    expect(headers.get('cache-control')).toContain('max-age=3600');
    expect(headers.get('cache-control')).toContain('stale-while-revalidate=86400');
  });
});

describe('adult items', () => {
  beforeAll(() => fx.serve({}, [{ key: 'adult', type: 'checkbox', title: 'Show adult titles' }]));

  it('are hidden unless the user config says adult: true', async () => {
    const plain = await pageAll('/catalog/movie/movies');
    expect(plain.ids.some((id) => id.startsWith('mq:adult-'))).toBe(false);
    expect((await fx.get('/meta/movie/mq%3Aadult-0.json')).status).toBe(404);

    const config = encodeURIComponent(JSON.stringify({ adult: true }));
    const ids: string[] = [];
    for (let skip = 0; ; skip += 100) {
      const { body } = await fx.get(`/${config}/catalog/movie/movies/skip=${skip}.json`);
      if (body.metas.length === 0) break;
      ids.push(...body.metas.map((m: { id: string }) => m.id));
    }
    expect(ids).toHaveLength(MOVIES.length + 3);
    expect((await fx.get(`/${config}/meta/movie/mq%3Aadult-0.json`)).body.meta.name).toBe('Late Film 0');
    expect((await fx.get(`/${config}/catalog/movie/movies/genre=Late%20Night.json`)).body.metas).toHaveLength(3);
    expect((await fx.get('/catalog/movie/movies/genre=Late%20Night.json')).body).toEqual({ metas: [] });
  });
});

describe('declared catalogs', () => {
  beforeAll(() =>
    fx.serve({
      catalogs: [
        { type: 'movie', id: 'top', name: 'Top rated', sort: 'rating', extras: ['skip'] },
        { type: 'movie', id: 'az', name: 'A to Z', sort: 'name', extras: ['genre', 'skip'] },
        { type: 'movie', id: 'classics', name: 'Oldest first', sort: 'oldest' },
      ],
    }),
  );

  it('declare exactly the configured catalogs and extras', async () => {
    const { body: manifest } = await fx.get('/manifest.json');
    expect(
      manifest.catalogs.map((c: { id: string; extra?: { name: string }[] }) => [
        c.id,
        (c.extra ?? []).map((e) => e.name),
      ]),
    ).toEqual([
      ['top', ['skip']],
      ['az', ['genre', 'skip']],
      ['classics', ['search', 'genre', 'skip']],
    ]);
    expect((await fx.get('/catalog/movie/movies.json')).status).toBe(404);
    expect((await fx.get('/catalog/movie/top/search=film.json')).status).toBe(404);
  });

  it('sort by rating (unrated last), by name and oldest first (undated last), ties by id', async () => {
    const rating = (m: Record<string, unknown>) => (typeof m.imdbRating === 'number' ? m.imdbRating : -1);
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));
    const top = await pageAll('/catalog/movie/top');
    expect(top.ids).toEqual([...MOVIES].sort((a, b) => rating(b) - rating(a) || byId(a, b)).map((m) => m.id));
    const az = await pageAll('/catalog/movie/az');
    expect(az.ids).toEqual(
      [...MOVIES].sort((a, b) => String(a.name).localeCompare(String(b.name)) || byId(a, b)).map((m) => m.id),
    );
    const oldest = await pageAll('/catalog/movie/classics');
    const date = (m: Record<string, unknown>) => (m.released === undefined ? Number.POSITIVE_INFINITY : released(m));
    expect(oldest.ids).toEqual([...MOVIES].sort((a, b) => date(a) - date(b) || byId(a, b)).map((m) => m.id));
  });
});

describe('answers within addon.maxAnswerBytes', () => {
  it('ends catalog pages early, the client paging on through every item once', async () => {
    // 150 films with inline posters of 10 KB (within the readers' 16 KB a field): 1 MB a page of 100.
    const posters = libraryFixture();
    try {
      const films = Array.from({ length: 150 }, (_, i) => ({
        type: 'movie',
        id: `tt${String(1_000_000 + i)}`,
        name: `Film ${i}`,
        poster: `data:image/png;base64,${'P'.repeat(10_000)}`,
      }));
      await importLibrary(posters.store, { files: [posters.write('posters.json', { items: films })] });
      await posters.serve({ maxAnswerBytes: 262_144 });
      const seen: string[] = [];
      for (;;) {
        const { status, body } = await posters.get(
          `/catalog/movie/movies${seen.length ? `/skip=${seen.length}` : ''}.json`,
        );
        expect(status).toBe(200);
        if (body.metas.length === 0) break;
        expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(262_144);
        expect(body.metas.length).toBeLessThan(100);
        seen.push(...body.metas.map((m: { id: string }) => m.id));
      }
      expect(new Set(seen).size).toBe(150);
      expect(seen).toHaveLength(150);
    } finally {
      await posters.close();
    }
  });
});
