import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { generatedItemId, slugify } from './id.js';
import { LibraryItemSchema } from './item.js';

const parse = (input: unknown) => v.parse(LibraryItemSchema, input);
const issues = (input: unknown) =>
  (v.safeParse(LibraryItemSchema, input, { abortPipeEarly: true }).issues ?? []).map((i) => [
    (i.path ?? []).map((p) => p.key).join('.'),
    i.message,
  ]);

describe('generated ids', () => {
  it('slugs type, name and year, dropping accents and keeping any script', () => {
    expect(generatedItemId('movie', 'Amélie', 2001)).toBe('mq:movie-amelie-2001');
    expect(generatedItemId('movie', "  Tears of Steel: Director's Cut! ", '2012')).toBe(
      'mq:movie-tears-of-steel-director-s-cut-2012',
    );
    expect(generatedItemId('movie', '千と千尋の神隠し')).toBe('mq:movie-千と千尋の神隠し');
    // Letters without a decomposition (æ, ø, ł) stay; ó and ź lose their accents.
    expect(slugify('Ærø — Łódź')).toBe('ærø-łodz');
  });

  it('is stable: the same item gets the same id, whatever date form gives the year', () => {
    const a = parse({ type: 'movie', name: 'Big Buck Bunny', released: 2008 });
    const b = parse({ type: 'movie', name: 'Big Buck Bunny', released: '2008-04-10T12:00:00+02:00' });
    const c = parse({ type: 'movie', name: 'Big Buck Bunny', releaseInfo: '2008' });
    expect([a.id, b.id, c.id]).toEqual(Array(3).fill('mq:movie-big-buck-bunny-2008'));
    expect(parse({ type: 'series', name: 'Big Buck Bunny' }).id).toBe('mq:series-big-buck-bunny');
  });

  it('passes given ids through, IMDb ids included', () => {
    expect(parse({ id: 'tt1727587', type: 'movie', name: 'Sintel' }).id).toBe('tt1727587');
    expect(issues({ id: 'a b', type: 'movie', name: 'x' })).toEqual([
      ['id', 'must be 1 to 200 characters, without spaces or "/"'],
    ]);
    expect(issues({ id: 'a/b', type: 'movie', name: 'x' })[0]![0]).toBe('id');
  });
});

describe('normalisation', () => {
  it('turns every accepted released form into a full RFC 3339 date-time', () => {
    const released = (r: unknown) => parse({ type: 'movie', name: 'x', released: r }).released;
    expect(released(2008)).toBe('2008-01-01T00:00:00.000Z');
    expect(released('2008')).toBe('2008-01-01T00:00:00.000Z');
    expect(released('2008-04-10')).toBe('2008-04-10T00:00:00.000Z');
    expect(released('2008-04-10T22:30:00-02:00')).toBe('2008-04-11T00:30:00.000Z');
    for (const bad of ['2008-4-10', '2008-02-30', '10/04/2008', 20.5, '2008-04-10T25:00:00Z', '']) {
      expect(issues({ type: 'movie', name: 'x', released: bad })[0]?.[0]).toBe('released');
    }
  });

  it('turns numeric runtime and rating into the protocol strings', () => {
    const item = parse({ type: 'movie', name: 'x', runtime: 15, imdbRating: 8 });
    expect([item.runtime, item.imdbRating]).toEqual(['15 min', '8.0']);
    expect(parse({ type: 'movie', name: 'x', runtime: '1h 30m', imdbRating: '7.4' }).runtime).toBe('1h 30m');
    expect(issues({ type: 'movie', name: 'x', imdbRating: 11 })[0]![0]).toBe('imdbRating');
  });

  it('gives episodes ids, titles, stream and subtitle lists, and subtitles ids per language', () => {
    const item = parse({
      id: 'tt0000001',
      type: 'series',
      name: 'Show',
      videos: [
        { season: 1, episode: 1, title: 'Pilot', subtitles: [{ url: 'https://a.example/1.srt', lang: 'eng' }] },
        { id: 'custom', season: 1, episode: 2, streams: [{ ytId: 'aqz-KE-bpKQ' }] },
      ],
    });
    expect(item.videos).toEqual([
      {
        id: 'tt0000001:1:1',
        season: 1,
        episode: 1,
        title: 'Pilot',
        streams: [],
        subtitles: [{ id: 'eng-1', url: 'https://a.example/1.srt', lang: 'eng' }],
      },
      { id: 'custom', season: 1, episode: 2, title: 'Episode 2', streams: [{ ytId: 'aqz-KE-bpKQ' }], subtitles: [] },
    ]);
    const subs = parse({
      type: 'movie',
      name: 'x',
      subtitles: [
        { url: 'https://a.example/en.vtt', lang: 'eng' },
        { url: 'https://a.example/fr.vtt', lang: 'fre' },
        { url: 'https://a.example/en2.vtt', lang: 'eng' },
        { id: 'mine', url: 'https://a.example/de.vtt', lang: 'ger' },
      ],
    }).subtitles.map((s) => s.id);
    expect(subs).toEqual(['eng-1', 'fre-1', 'eng-2', 'mine']);
  });

  it('keeps videos on series, streams and subtitles on movies', () => {
    expect(issues({ type: 'movie', name: 'x', videos: [{ season: 1, episode: 1 }] })).toEqual([
      ['videos', 'only a series has videos'],
    ]);
    expect(issues({ type: 'series', name: 'x', streams: [{ ytId: 'a' }] })[0]).toEqual([
      'streams',
      'a series has no streams of its own: put them on its videos',
    ]);
    expect(issues({ type: 'series', name: 'x', subtitles: [] })[0]![0]).toBe('subtitles');
  });

  it('drops $schema from the record', () => {
    expect(parse({ $schema: 'x', type: 'movie', name: 'x' })).not.toHaveProperty('$schema');
  });
});
