import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLibraryCsv } from './csv.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/library/${name}`, import.meta.url), 'utf8');

describe('parseLibraryCsv', () => {
  it('reads quoted multi-line cells, lists, numbered stream groups and subtitles', () => {
    const { items, warnings } = parseLibraryCsv(fixture('movies.csv'), { source: 'movies.csv' });
    expect(warnings).toEqual([]);
    const [sintel, bunny] = items;
    expect(sintel).toMatchObject({
      id: 'tt1727587',
      type: 'movie',
      released: '2010-09-27T00:00:00.000Z',
      runtime: '15 min',
      genres: ['Fantasy', 'Animation'],
      cast: ['Halina Reijn', 'Thom Hoffman'],
      director: ['Colin Levy'],
      imdbRating: '7.4',
      streams: [
        { url: 'https://download.blender.org/durian/trailer/sintel_trailer-720p.mp4', name: 'Trailer 720p' },
        { ytId: 'eRsGyueVLvQ', name: 'YouTube' },
      ],
      subtitles: [
        { id: 'eng-1', url: 'https://durian.blender.org/wp-content/content/subtitles/sintel_en.srt', lang: 'eng' },
      ],
    });
    expect(sintel!.description).toBe(
      'A lonely young woman, Sintel, helps and befriends a dragon, whom she calls "Scales".\nWhen he is kidnapped, she sets out to find him.',
    );
    expect(bunny).toMatchObject({ id: 'mq:movie-big-buck-bunny-2008', cast: [], streams: [{ name: '320x180' }] });
    expect(bunny!.subtitles).toEqual([]);
  });

  it('detects ; and reads headers in any case and spacing', () => {
    const { items, warnings } = parseLibraryCsv(fixture('movies-semicolon.csv'));
    expect(warnings).toEqual([]);
    expect(items.map((i) => [i.id, i.releaseInfo, i.genres])).toEqual([
      ['mq:movie-tears-of-steel-2012', '2012', ['Science Fiction']],
      ['mq:movie-elephants-dream-2006', '2006', ['Animation', 'Science Fiction']],
    ]);
    expect(items[0]!.description).toBe('Warriors and scientists gather; they try to save the world');
  });

  it('reads CRLF files with a BOM, and a delimiter given as an option', () => {
    const text = '\uFEFFtype\tname\tdescription\r\nmovie\tSpring\t"Two lines\r\nof text"\r\n';
    const { items } = parseLibraryCsv(text, { delimiter: '\t' });
    expect(items.map((i) => [i.name, i.description])).toEqual([['Spring', 'Two lines\nof text']]);
  });

  it('attaches episode rows to their series wherever they stand', () => {
    const { items, warnings } = parseLibraryCsv(fixture('series.csv'), { source: 'series.csv' });
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]!.genres).toEqual(['Animation', 'Comedy']);
    expect(items[0]!.videos.map((v) => [v.id, v.title, v.released, v.streams])).toEqual([
      ['camin:1:2', 'Gran Dillama', '2013-11-22T00:00:00.000Z', [{ ytId: 'Z4C82eyhwgU' }]],
      ['camin:1:3', 'Llamigos', '2016-01-30T00:00:00.000Z', [{ ytId: 'SkVqJ1SGeL0' }]],
      [
        'camin:1:1',
        'Llama Drama',
        '2013-01-01T00:00:00.000Z',
        [{ externalUrl: 'https://archive.org/details/Caminandes1LlamaDrama' }],
      ],
    ]);
  });

  it('reports every malformed row with line and column, and keeps the good rows', () => {
    const { items, warnings } = parseLibraryCsv(fixture('malformed.csv'), { source: 'bad.csv' });
    expect(items.map((i) => i.name)).toEqual(['Good One', 'Show']);
    expect(items[1]!.videos.map((v) => v.id)).toEqual(['mq:series-show-2020:1:1']);
    expect(warnings.every((w) => w.source === 'bad.csv')).toBe(true);
    const found = warnings.map((w) => [w.line, w.field ?? null, w.message]);
    expect(found).toEqual([
      [4, null, 'text after the closing quote of field 2; row skipped'],
      [12, null, 'a quoted field is never closed; the rest of the file is lost'],
      [1, 'colour', 'column 9 "colour" is not a library field; ignored'],
      [6, null, 'row has 2 fields, the header has 9; row skipped'],
      [11, 'series_id', 'series_id "mq:series-nothing" matches no item in this file; episode skipped'],
      [
        3,
        'released',
        expect.stringMatching(/^row "Bad Date": column 3 \(released\): must be a year .*; item skipped$/),
      ],
      [
        5,
        'poster',
        'row "Bad Poster": column 4 (poster): must be an absolute URL (the client drops the item otherwise); item skipped',
      ],
      [
        9,
        'stream_url',
        expect.stringMatching(/^row "Show": column 5 \(stream_url\): must be an absolute URL.*; episode skipped$/),
      ],
      [
        10,
        'season',
        expect.stringMatching(
          /^row "Show": column 7 \(season\): Invalid type: Expected number but received "one"; episode skipped$/,
        ),
      ],
    ]);
  });

  it('warns about item columns on episode rows and the reverse', () => {
    const text =
      'id,type,name,genres,series_id,season,episode,title\ns,series,S,Drama,,,,Oops\n,,,Comedy,s,1,1,Pilot\n';
    const { items, warnings } = parseLibraryCsv(text);
    expect(items[0]!.videos.map((v) => v.title)).toEqual(['Pilot']);
    expect(items[0]!.genres).toEqual(['Drama']);
    expect(warnings.map((w) => [w.line, w.field])).toEqual([
      [2, 'title'],
      [3, 'genres'],
    ]);
  });

  it('keeps the first of two rows with one id, and reports duplicate episodes', () => {
    const text = [
      'id,type,name,series_id,season,episode,stream_url',
      'x,movie,First,,,,',
      'x,movie,Second,,,,',
      's,series,Show,,,,',
      ',,,s,1,1,https://a.example/1.mp4',
      ',,,s,1,1,https://a.example/again.mp4',
    ].join('\n');
    const { items, warnings } = parseLibraryCsv(text, { source: 'd.csv' });
    expect(items.map((i) => i.name)).toEqual(['First', 'Show']);
    expect(items[1]!.videos).toHaveLength(1);
    expect(warnings).toMatchObject([
      { line: 3, field: 'id', message: expect.stringContaining('first defined at d.csv:2 (row)') },
      {
        line: 6,
        field: 'series_id',
        message: expect.stringContaining('duplicate episode id "s:1:1" (first at line 5)'),
      },
    ]);
  });

  it('refuses a header without type or name, and bounds sizes', () => {
    expect(() => parseLibraryCsv('name,genres\nx,y\n', { source: 'h.csv' })).toThrow(
      'h.csv:1: the header row has no "type" column',
    );
    const rows = `type,name,description\n${'movie,A,ok\n'.repeat(3)}`;
    expect(() => parseLibraryCsv(rows, { maxItems: 2 })).toThrow(/3 items, more than the limit of 2/);
    expect(() => parseLibraryCsv(rows, { maxFileBytes: 10 })).toThrow(/larger than the limit/);
    const long = parseLibraryCsv(`type,name,description\nmovie,A,${'x'.repeat(50)}\nmovie,B,ok\n`, {
      maxFieldLength: 40,
    });
    expect(long.items.map((i) => i.name)).toEqual(['B']);
    expect(long.warnings).toMatchObject([
      { line: 2, field: 'description', message: expect.stringContaining('longer than 40') },
    ]);
  });
});
