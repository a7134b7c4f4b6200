/**
 * Library search over HTTP: accent- and case-insensitive, prefix on the last word, ranked with
 * a name match above a cast or description match, paged with skip, and FTS5 syntax typed by a
 * user is only text (never an error page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../src/library/index.js';
import { type LibraryFixture, libraryFixture } from './library-helpers.js';

let fx: LibraryFixture;

const ITEMS = [
  {
    id: 'tt0211915',
    type: 'movie',
    name: "Le Fabuleux Destin d'Amélie Poulain",
    cast: ['Audrey Tautou'],
    released: 2001,
  },
  {
    id: 'mq:about',
    type: 'movie',
    name: 'Paris Stories',
    description: 'A film in the spirit of Amelie, set in Montmartre.',
    released: 2005,
  },
  { id: 'mq:coco', type: 'movie', name: 'Coco', cast: ['Audrey Tautou'], released: 2009 },
  { id: 'mq:tautou', type: 'movie', name: 'Audrey Tautou, a portrait', released: 2012 },
  { id: 'mq:ete', type: 'movie', name: 'ÉTÉ INDIEN', released: 2010 },
  { id: 'mq:spirit', type: 'movie', name: 'Spirited Away', director: ['Hayao Miyazaki'], released: 2001 },
  { id: 'mq:miyazaki', type: 'movie', name: 'Miyazaki', description: 'A documentary.', released: 2002 },
  { id: 'mq:show', type: 'series', name: 'Amélie, the series', released: 2020, videos: [{ season: 1, episode: 1 }] },
  ...Array.from({ length: 130 }, (_, i) => ({
    id: `mq:night-${String(i).padStart(3, '0')}`,
    type: 'movie',
    name: `Night ${i}`,
    released: 2000 + (i % 20),
  })),
];

beforeAll(async () => {
  fx = libraryFixture();
  await importLibrary(fx.store, { files: [fx.write('library.json', ITEMS)] });
  await fx.serve();
});
afterAll(() => fx.close());

async function search(query: string, type = 'movie', skip = 0): Promise<string[]> {
  const extra = `search=${encodeURIComponent(query)}${skip ? `&skip=${skip}` : ''}`;
  const { status, body } = await fx.get(`/catalog/${type}/${type === 'movie' ? 'movies' : 'series'}/${extra}.json`);
  expect(status, query).toBe(200);
  return body.metas.map((m: { id: string }) => m.id);
}

describe('library search', () => {
  it('ignores accents and case on both sides', async () => {
    expect(await search('amelie poulain')).toEqual(['tt0211915']);
    expect(await search('AMÉLIE POULAIN')).toEqual(['tt0211915']);
    expect(await search('été indien')).toEqual(['mq:ete']);
    expect(await search('ete INDIEN')).toEqual(['mq:ete']);
  });

  it('matches the last word as a prefix, the others as whole words', async () => {
    expect(await search('fabul')).toEqual(['tt0211915']);
    expect(await search('destin fabul')).toEqual(['tt0211915']);
    expect(await search('fabul destin')).toEqual([]);
  });

  it('ranks a name match above a cast or description match, with a stable tie-break', async () => {
    expect(await search('amelie')).toEqual(['tt0211915', 'mq:about']);
    const tautou = await search('tautou');
    expect(tautou[0]).toBe('mq:tautou');
    expect(tautou.slice(1).sort()).toEqual(['mq:coco', 'tt0211915']);
    expect(await search('tautou')).toEqual(tautou);
    expect(await search('miyazaki')).toEqual(['mq:miyazaki', 'mq:spirit']);
  });

  it('searches only the catalog type', async () => {
    expect(await search('amelie', 'series')).toEqual(['mq:show']);
  });

  it('pages search results with skip, ending on an empty page', async () => {
    const first = await search('night');
    const second = await search('night', 'movie', 100);
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(30);
    expect(new Set([...first, ...second]).size).toBe(130);
    expect(await search('night', 'movie', 130)).toEqual([]);
  });

  it('answers no hit with an empty page', async () => {
    const { status, body } = await fx.get('/catalog/movie/movies/search=zzzz.json');
    expect(status).toBe(200);
    expect(body).toEqual({ metas: [] });
  });

  it('treats FTS5 syntax as text: no error, no injection', async () => {
    for (const query of [
      '"',
      '""',
      'AND (',
      'amelie AND (',
      'NEAR(a b)',
      '*',
      'title:amelie',
      '-amelie',
      '^',
      "'); DROP TABLE",
    ]) {
      const { status, body } = await fx.get(`/catalog/movie/movies/search=${encodeURIComponent(query)}.json`);
      expect(status, query).toBe(200);
      expect(Array.isArray(body.metas), query).toBe(true);
    }
    expect(await search('"amelie')).toEqual(['tt0211915', 'mq:about']);
    expect(await search('amelie AND (')).toEqual([]);
    expect(await search('"')).toEqual([]);
    expect(fx.store.libraryCounts().items).toBe(ITEMS.length);
  });
});
