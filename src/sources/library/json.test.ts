import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import { parseLibraryJson } from './json.js';

const sintel = {
  type: 'movie',
  name: 'Sintel',
  released: '2010-09-27',
  streams: [{ url: 'https://download.blender.org/durian/movies/Sintel.2010.720p.mkv', name: '720p' }],
};

function lines(...items: unknown[]): string {
  return `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]\n`;
}

describe('parseLibraryJson', () => {
  it('reads an array of items and normalises them', () => {
    const { items, warnings } = parseLibraryJson(JSON.stringify([sintel]), { source: 'lib.json' });
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: 'mq:movie-sintel-2010',
      released: '2010-09-27T00:00:00.000Z',
      releaseInfo: '2010',
      genres: [],
      videos: [],
      adult: false,
    });
  });

  it('reads { items: [...] } with $schema, and a single item object', () => {
    const wrapped = parseLibraryJson(JSON.stringify({ $schema: './x.json', items: [sintel] }));
    expect(wrapped.warnings).toEqual([]);
    expect(wrapped.items.map((i) => i.name)).toEqual(['Sintel']);
    const single = parseLibraryJson(JSON.stringify({ ...sintel, id: 'tt1727587' }));
    expect(single.items.map((i) => i.id)).toEqual(['tt1727587']);
  });

  it('skips each bad item with its line, index and field, and keeps the good ones', () => {
    const text = lines(
      sintel,
      { type: 'movie', name: 'Bad poster', poster: 'poster.jpg' },
      { type: 'film', name: 'Bad type' },
      { type: 'movie', name: 'Bad stream', streams: [{ url: 'https://a.example/x.mp4', ytId: 'abc' }] },
      { type: 'movie', name: 'Bad date', released: '2010-02-30' },
      { type: 'movie' },
      'not an item',
      { type: 'movie', name: 'Elephants Dream', released: 2006 },
    );
    const { items, warnings } = parseLibraryJson(text, { source: 'lib.json' });
    expect(items.map((i) => i.name)).toEqual(['Sintel', 'Elephants Dream']);
    expect(warnings.map((w) => [w.line, w.field])).toEqual([
      [3, 'poster'],
      [4, 'type'],
      [5, 'streams[0]'],
      [6, 'released'],
      [7, 'name'],
      [8, undefined],
    ]);
    expect(warnings.every((w) => w.source === 'lib.json')).toBe(true);
    expect(warnings[0]!.message).toBe(
      'item [1] "Bad poster": poster: must be an absolute URL (the client drops the item otherwise); item skipped',
    );
    expect(warnings[1]!.message).toContain('must be "movie" or "series"');
    expect(warnings[2]!.message).toContain('exactly one source');
    expect(warnings[3]!.message).toContain('must be a year (2008), a day');
    expect(warnings[4]!.message).toBe('item [5]: name: is required; item skipped');
    expect(warnings[5]!.message).toBe('item [6]: must be an object; item skipped');
  });

  it('finds item lines in pretty-printed files with strings holding brackets', () => {
    const items = [
      { type: 'movie', name: 'A [1]', description: 'has "quotes", {braces} and\nescaped newlines' },
      { type: 'movie', name: 'B', poster: 'nope' },
    ];
    const text = JSON.stringify({ items }, null, 2);
    const { warnings } = parseLibraryJson(text);
    const nameLine = text.split('\n').findIndex((l) => l.includes('"B"')) + 1;
    // The item starts at its `{`, two lines above "name" (`{`, then "type", then "name").
    expect(warnings[0]!.line).toBe(nameLine - 2);
  });

  it('reports invalid JSON with line and column', () => {
    const cases: [string, number, number, string][] = [
      ['[\n  {"type": "movie",}\n]', 2, 20, 'trailing comma'],
      ['[\n  {"type": "movie"\n  {"name": "x"}\n]', 3, 3, "',' or '}'"],
      ['[\n  {"name": "a\nb"}]', 2, 14, 'control character'],
      ['[{"a": 1}', 1, 10, 'end of file'],
      ['\uFEFF[\n {name: 1}]', 2, 3, 'property name in double quotes'],
      ['[1] x', 1, 5, 'after the end'],
    ];
    for (const [text, line, column, words] of cases) {
      try {
        parseLibraryJson(text, { source: 'bad.json' });
        expect.unreachable(`no error for ${text}`);
      } catch (error) {
        expect(isMarqueeError(error, 'SOURCE_INVALID')).toBe(true);
        const e = error as Error & { details: Record<string, unknown> };
        expect(e.message).toContain(`bad.json:${line}:${column}: invalid JSON`);
        expect(e.message).toContain(words);
        expect(e.details).toMatchObject({ line, column });
      }
    }
  });

  it('refuses JSON that is not a library, and nesting beyond the depth bound', () => {
    expect(() => parseLibraryJson('42')).toThrow(/array of items/);
    expect(() => parseLibraryJson('{"items": {}}')).toThrow(/"items" must be an array/);
    expect(() => parseLibraryJson(`${'['.repeat(100)}${']'.repeat(100)}`)).toThrow(/nested deeper than 64/);
  });

  it('keeps the first of two items with one id and names both places', () => {
    const text = lines(sintel, { ...sintel, description: 'again' }, { ...sintel, released: '2011' });
    const { items, warnings } = parseLibraryJson(text, { source: 'dup.json' });
    expect(items.map((i) => i.id)).toEqual(['mq:movie-sintel-2010', 'mq:movie-sintel-2011']);
    expect(items[0]!.description).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: 'dup.json', line: 3, field: 'id' });
    expect(warnings[0]!.message).toContain(
      'duplicate id "mq:movie-sintel-2010", first defined at dup.json:2 (item [0])',
    );
  });

  it('bounds file size, item count and field length', () => {
    const text = lines(sintel, { type: 'movie', name: 'Long', description: 'x'.repeat(101) });
    expect(() => parseLibraryJson(text, { maxFileBytes: 50 })).toThrow(/larger than the limit of 50 bytes/);
    expect(() => parseLibraryJson(text, { maxItems: 1 })).toThrow(/2 items, more than the limit of 1/);
    const { items, warnings } = parseLibraryJson(text, { maxFieldLength: 100 });
    expect(items.map((i) => i.name)).toEqual(['Sintel']);
    expect(warnings[0]).toMatchObject({ line: 3, field: 'description' });
    expect(warnings[0]!.message).toContain('longer than 100 characters');
  });

  it('skips a bad or repeated episode but keeps its series', () => {
    const series = {
      id: 'tt0000001',
      type: 'series',
      name: 'Show',
      videos: [
        { season: 1, episode: 1, title: 'Pilot' },
        { season: 1, episode: 2, released: 'yesterday' },
        { season: 1, episode: 3, overview: 'y'.repeat(50) },
        { season: 1, episode: 1, title: 'Pilot again' },
        { episode: 4, rating: 5 },
        { season: 1, episode: 5, streams: [{ url: 'https://a.example/5.mp4' }] },
      ],
    };
    const { items, warnings } = parseLibraryJson(lines(series), { source: 's.json', maxFieldLength: 40 });
    expect(items[0]!.videos.map((v) => [v.id, v.title])).toEqual([
      ['tt0000001:1:1', 'Pilot'],
      ['tt0000001:1:5', 'Episode 5'],
    ]);
    expect(warnings.map((w) => [w.line, w.field, w.message])).toEqual([
      [
        2,
        'videos[1].released',
        expect.stringMatching(/^item \[0\] "Show": videos\[1\]\.released: must be a year .*; episode skipped$/),
      ],
      [2, 'videos[2].overview', 'item [0] "Show": videos[2].overview: longer than 40 characters; episode skipped'],
      [2, 'videos[4].rating', 'item [0] "Show": videos[4].rating: unknown field ignored'],
      [2, 'videos[4].season', 'item [0] "Show": videos[4].season: is required; episode skipped'],
      [
        2,
        'videos[3]',
        'item [0] "Show": videos[3]: duplicate episode id "tt0000001:1:1" (first at videos[0]); episode skipped',
      ],
    ]);
  });

  it('warns about unknown fields and keeps the item', () => {
    const { items, warnings } = parseLibraryJson(lines({ ...sintel, gneres: ['Fantasy'] }));
    expect(items).toHaveLength(1);
    expect(items[0]).not.toHaveProperty('gneres');
    expect(warnings).toMatchObject([
      { line: 2, field: 'gneres', message: 'item [0] "Sintel": gneres: unknown field ignored' },
    ]);
  });

  it('cuts names, genres and episode titles past maxNameLength, each with a warning naming its field', () => {
    const series = {
      type: 'series',
      name: 'S'.repeat(500),
      genres: ['Drama', 'G'.repeat(400)],
      videos: [
        { season: 1, episode: 1, title: 'T'.repeat(350) },
        { season: 1, episode: 2, title: 'Fine' },
      ],
    };
    const { items, warnings } = parseLibraryJson(lines(series), { source: 'lib.json' });
    expect(items[0]).toMatchObject({ name: 'S'.repeat(300), genres: ['Drama', 'G'.repeat(300)] });
    expect(items[0]!.videos.map((v) => v.title)).toEqual(['T'.repeat(300), 'Fine']);
    expect(warnings.map((w) => [w.line, w.field, w.message.replace(/^item \[0\] "S+\.\.\.": /, '')])).toEqual([
      [2, 'name', 'name: is 500 characters long; cut to 300 (sources.maxNameLength)'],
      [2, 'genres[1]', 'genres[1]: is 400 characters long; cut to 300 (sources.maxNameLength)'],
      [2, 'videos[0].title', 'videos[0].title: is 350 characters long; cut to 300 (sources.maxNameLength)'],
    ]);
    // Past maxFieldLength too: cut, not skipped.
    const huge = parseLibraryJson(lines({ ...sintel, name: 'N'.repeat(20_000) }), { maxNameLength: 50 });
    expect(huge.items.map((i) => i.name)).toEqual(['N'.repeat(50)]);
  });
});
