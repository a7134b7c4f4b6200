/**
 * Series metas with their episodes, streams of movies and episodes (episode ids split from the
 * right, since series ids may contain ":"), subtitles of movies and episodes, and the answers
 * for ids the library does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLibrary } from '../src/library/index.js';
import { type LibraryFixture, libraryFixture } from './library-helpers.js';

let fx: LibraryFixture;

const SUB = (lang: string, name: string) => ({ url: `https://subs.example/${name}.${lang}.srt`, lang });

const ITEMS = [
  {
    id: 'mq:series:caminandes',
    type: 'series',
    name: 'Caminandes',
    releaseInfo: '2013-2016',
    genres: ['Animation'],
    videos: [
      // Out of order in the file: the meta lists them by season and episode.
      { season: 1, episode: 3, title: 'Llamigos', released: '2016-01-01', streams: [{ ytId: 'SkVqJ1SGeL0' }] },
      {
        season: 1,
        episode: 1,
        title: 'Llama Drama',
        released: '2013-01-01',
        overview: 'Koro meets a fence.',
        thumbnail: 'https://images.example/c1.jpg',
        streams: [
          { url: 'https://media.example/c1-1080.mp4', name: 'HD' },
          { url: 'https://media.example/c1-480.mp4', name: 'SD' },
        ],
        subtitles: [SUB('eng', 'c1'), SUB('fre', 'c1')],
      },
      { season: 0, episode: 1, title: 'Making of' },
      {
        id: 'mq:custom-episode',
        season: 1,
        episode: 2,
        title: 'Gran Dillama',
        streams: [{ url: 'https://media.example/c2.mp4' }],
      },
    ],
  },
  {
    id: 'tt1727587',
    type: 'movie',
    name: 'Sintel',
    streams: [{ url: 'https://media.example/sintel.mp4' }],
    subtitles: [SUB('eng', 'sintel'), SUB('eng', 'sintel-sdh'), SUB('spa', 'sintel')],
  },
];

beforeAll(async () => {
  fx = libraryFixture();
  await importLibrary(fx.store, { files: [fx.write('library.json', ITEMS)] });
  await fx.serve();
});
afterAll(() => fx.close());

const enc = encodeURIComponent;

describe('series', () => {
  it('answers the series meta with every episode, by season then episode', async () => {
    const { status, body } = await fx.get(`/meta/series/${enc('mq:series:caminandes')}.json`);
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({
      id: 'mq:series:caminandes',
      type: 'series',
      name: 'Caminandes',
      genres: ['Animation'],
    });
    expect(body.meta.videos).toEqual([
      { id: 'mq:series:caminandes:0:1', title: 'Making of', season: 0, episode: 1 },
      {
        id: 'mq:series:caminandes:1:1',
        title: 'Llama Drama',
        season: 1,
        episode: 1,
        released: '2013-01-01T00:00:00.000Z',
        overview: 'Koro meets a fence.',
        thumbnail: 'https://images.example/c1.jpg',
      },
      { id: 'mq:custom-episode', title: 'Gran Dillama', season: 1, episode: 2 },
      {
        id: 'mq:series:caminandes:1:3',
        title: 'Llamigos',
        season: 1,
        episode: 3,
        released: '2016-01-01T00:00:00.000Z',
      },
    ]);
    expect(body.meta).not.toHaveProperty('streams');
  });

  it('answers the streams of an episode by its id, in file order', async () => {
    const { body } = await fx.get(`/stream/series/${enc('mq:series:caminandes:1:1')}.json`);
    expect(body.streams.map((s: { name: string }) => s.name)).toEqual(['HD', 'SD']);
    expect((await fx.get(`/stream/series/${enc('mq:custom-episode')}.json`)).body.streams).toEqual([
      { url: 'https://media.example/c2.mp4' },
    ]);
  });

  it('finds an episode with its own id by {seriesId}:{season}:{episode}, split from the right', async () => {
    const { body } = await fx.get(`/stream/series/${enc('mq:series:caminandes:1:2')}.json`);
    expect(body.streams).toEqual([{ url: 'https://media.example/c2.mp4' }]);
  });

  it('answers an empty list for episodes without streams and ids it does not have', async () => {
    for (const id of [
      'mq:series:caminandes:0:1',
      'mq:series:caminandes:9:9',
      'mq:series:caminandes',
      'mq:nothing:1:1',
    ]) {
      const { status, body } = await fx.get(`/stream/series/${enc(id)}.json`);
      expect([id, status, body]).toEqual([id, 200, { streams: [] }]);
    }
    // An IMDb id the library lacks is routed here (tt prefix) and answered empty, so other add-ons' streams show.
    expect((await fx.get('/stream/movie/tt0000001.json')).body).toEqual({ streams: [] });
    // An episode id asked with the movie type is not the movie's.
    expect((await fx.get(`/stream/movie/${enc('mq:series:caminandes:1:1')}.json`)).body).toEqual({ streams: [] });
  });

  it('answers 404 for a meta it does not have', async () => {
    expect((await fx.get('/meta/movie/tt0000001.json')).status).toBe(404);
    expect((await fx.get('/meta/series/tt1727587.json')).status).toBe(404);
    expect((await fx.get('/meta/movie/other%3Aprefix.json')).status).toBe(404);
  });
});

describe('subtitles', () => {
  it('declares the resource and answers the subtitles of a movie, ignoring videoHash and friends', async () => {
    const { body: manifest } = await fx.get('/manifest.json');
    expect(manifest.resources).toContainEqual({
      name: 'subtitles',
      types: ['movie', 'series'],
      idPrefixes: ['mq:', 'tt'],
    });
    const { status, body } = await fx.get(
      '/subtitles/movie/tt1727587/videoHash=abc123&videoSize=1000&filename=s.mkv.json',
    );
    expect(status).toBe(200);
    expect(body.subtitles).toEqual([
      { id: 'eng-1', url: 'https://subs.example/sintel.eng.srt', lang: 'eng' },
      { id: 'eng-2', url: 'https://subs.example/sintel-sdh.eng.srt', lang: 'eng' },
      { id: 'spa-1', url: 'https://subs.example/sintel.spa.srt', lang: 'spa' },
    ]);
    expect((await fx.get('/subtitles/movie/tt1727587.json')).body.subtitles).toHaveLength(3);
  });

  it('answers the subtitles of an episode, and none for unknown ids', async () => {
    const { body } = await fx.get(`/subtitles/series/${enc('mq:series:caminandes:1:1')}/videoHash=x.json`);
    expect(body.subtitles.map((s: { lang: string }) => s.lang)).toEqual(['eng', 'fre']);
    expect((await fx.get(`/subtitles/series/${enc('mq:series:caminandes:1:3')}.json`)).body).toEqual({ subtitles: [] });
    expect((await fx.get('/subtitles/movie/tt0000001.json')).body).toEqual({ subtitles: [] });
  });
});
