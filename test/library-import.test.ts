/**
 * Importing library files through importLibrary and serving them over HTTP: JSON and CSV, good
 * and malformed. Every problem comes back with file, line and field; a failed import (nothing
 * usable, an unreadable file, a file that is not JSON) leaves the previous library served.
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMarqueeError } from '../src/errors.js';
import { importLibrary, type LibraryImportProgress } from '../src/library/index.js';
import { type LibraryFixture, libraryFixture } from './library-helpers.js';

let fx: LibraryFixture;
beforeEach(() => {
  fx = libraryFixture();
});
afterEach(() => fx.close());

const GOOD_JSON = [
  {
    id: 'tt1727587',
    type: 'movie',
    name: 'Sintel',
    released: '2010-09-27',
    genres: ['Animation'],
    streams: [{ url: 'https://media.example/sintel.mp4', name: 'Example' }],
    subtitles: [{ url: 'https://media.example/sintel.en.srt', lang: 'eng' }],
  },
  {
    id: 'mq:caminandes',
    type: 'series',
    name: 'Caminandes',
    releaseInfo: '2013-2016',
    videos: [{ season: 1, episode: 1, title: 'Llama Drama', streams: [{ ytId: 'Z4C82eyhwgU' }] }],
  },
];

const GOOD_CSV = [
  'id,type,name,released,genres,stream_url,stream_name,series_id,season,episode,title',
  'tt2285752,movie,Tears of Steel,2012,Science Fiction|Short,https://media.example/tos.mp4,Example,,,,',
  'mq:agent,series,Agent 327,2017,Action,,,,,,',
  ',,,2017,,https://media.example/agent-1.mp4,,mq:agent,1,1,Operation Barbershop',
].join('\n');

async function expectImportFailed(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(isMarqueeError(error, 'IMPORT_FAILED'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected IMPORT_FAILED, the import succeeded');
}

describe('importLibrary', () => {
  it('imports JSON and CSV files together and serves them', async () => {
    const progress: LibraryImportProgress[] = [];
    const json = fx.write('library.json', GOOD_JSON);
    const csv = fx.write('more.csv', GOOD_CSV);
    const { report, warnings } = await importLibrary(fx.store, {
      files: [json, csv],
      onProgress: (p) => progress.push(p),
    });
    expect(warnings).toEqual([]);
    expect(report.counts).toMatchObject({ items: 4, movies: 2, series: 2, episodes: 2, streams: 4, subtitles: 1 });
    expect(report.idPrefixes).toEqual(['mq:', 'tt']);
    expect(progress.map((p) => p.phase)).toEqual(['reading', 'read', 'reading', 'read', 'committed']);

    await fx.serve();
    const movies = (await fx.get('/catalog/movie/movies.json')).body.metas.map((m: { name: string }) => m.name);
    expect(movies).toEqual(['Tears of Steel', 'Sintel']);
    const agent = (await fx.get('/meta/series/mq%3Aagent.json')).body.meta;
    expect(agent.videos).toEqual([
      {
        id: 'mq:agent:1:1',
        title: 'Operation Barbershop',
        season: 1,
        episode: 1,
        released: '2017-01-01T00:00:00.000Z',
      },
    ]);
    expect((await fx.get('/stream/series/mq%3Aagent%3A1%3A1.json')).body.streams).toEqual([
      { url: 'https://media.example/agent-1.mp4' },
    ]);
  });

  it('skips bad JSON items with file, line and field, and imports the rest', async () => {
    const text = `[
  { "type": "movie", "name": "Good", "released": 2001 },
  { "type": "movie", "name": "Bad poster", "poster": "not a url" },
  { "type": "series", "name": "Series with streams", "streams": [{ "url": "https://media.example/x.mp4" }] },
  { "type": "film", "name": "Wrong type" }
]`;
    const file = fx.write('mixed.json', text);
    const { report, warnings, warningCount } = await importLibrary(fx.store, { files: [file] });
    expect(report.counts.items).toBe(1);
    expect(warningCount).toBe(3);
    expect(warnings.map((w) => [w.source, w.line, w.field])).toEqual([
      [file, 3, 'poster'],
      [file, 4, 'streams'],
      [file, 5, 'type'],
    ]);
    expect(report.warnings).toBe(3);
  });

  it('skips bad CSV rows with file, line and column', async () => {
    const csv = [
      'id,type,name,stream_url,series_id,season,episode',
      'mq:ok,movie,Fine,https://media.example/ok.mp4,,,',
      'mq:bad,movie,Broken stream,not-a-url,,,',
      ',,,https://media.example/e.mp4,mq:nowhere,1,1',
    ].join('\n');
    const file = fx.write('rows.csv', csv);
    const { report, warnings } = await importLibrary(fx.store, { files: [file] });
    expect(report.counts.items).toBe(1);
    expect(warnings.map((w) => [w.source, w.line, w.field]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      [file, 3, 'stream_url'],
      [file, 4, 'series_id'],
    ]);
  });

  it('keeps the first of two equal ids across files and says where the first one is', async () => {
    const a = fx.write('a.json', [{ id: 'tt1', type: 'movie', name: 'First' }]);
    const b = fx.write('b.json', [
      { id: 'tt1', type: 'movie', name: 'Second' },
      {
        id: 'mq:s',
        type: 'series',
        name: 'S',
        videos: [
          { id: 'tt1', season: 1, episode: 1 },
          { season: 1, episode: 2 },
        ],
      },
    ]);
    const { report, warnings } = await importLibrary(fx.store, { files: [a, b] });
    expect(report.counts).toMatchObject({ items: 2, episodes: 1 });
    expect(warnings).toEqual([
      {
        source: b,
        field: 'id',
        message: expect.stringContaining(`duplicate id "tt1", first defined by item "First" in ${a}`),
      },
      { source: b, field: 'videos[0].id', message: expect.stringContaining('episode id "tt1" is already used') },
    ]);
  });

  it('keeps serving the previous library when nothing usable is imported, or its file goes bad', async () => {
    const library = fx.write('library.json', GOOD_JSON);
    await importLibrary(fx.store, { files: [library] });
    await fx.serve();
    const paths = [
      '/manifest.json',
      '/catalog/movie/movies.json',
      '/meta/movie/tt1727587.json',
      '/stream/movie/tt1727587.json',
    ];
    const before = await Promise.all(paths.map((p) => fx.get(p).then((r) => r.body)));
    const versionBefore = fx.store.dataVersion();

    // Files never imported before that hold nothing usable: the import fails.
    const bad = fx.write('bad.json', [{ type: 'movie' }, { type: 'movie', name: 'x', poster: 'nope' }]);
    expect(await expectImportFailed(() => importLibrary(fx.store, { files: [bad] }))).toMatch(
      /no usable item in .*bad\.json .*holds no usable item \(the first item skipped: .*bad\.json:2 name: .*previous library is still served/s,
    );
    expect(await expectImportFailed(() => importLibrary(fx.store, { files: [fx.write('empty.json', [])] }))).toMatch(
      /empty\.json holds no usable item; it never imported well/,
    );
    expect(fx.store.dataVersion()).toBe(versionBefore);

    // The served file itself goes bad: not JSON, then gone. Its last good items stay served.
    fx.write('library.json', '[{ "type": "movie", "name": "A" },');
    const broken = await importLibrary(fx.store, { files: [library] });
    expect(broken.sources).toMatchObject([{ location: library, outcome: 'kept' }]);
    expect(broken.sources[0]?.message).toMatch(
      /library .*library\.json failed: line 1, column 35: invalid JSON.*keeping the last good data/,
    );
    rmSync(library);
    const missing = await importLibrary(fx.store, { files: [library] });
    expect(missing.sources[0]?.message).toMatch(/library\.json failed: file not found; keeping the last good data/);

    const after = await Promise.all(paths.map((p) => fx.get(p).then((r) => r.body)));
    expect(after).toEqual(before);
    expect(fx.store.libraryImportHistory(5).map((r) => r.status)).toEqual(['ok', 'ok', 'failed', 'failed', 'ok']);
  });

  it('replaces the library on the next good import and the server follows', async () => {
    await importLibrary(fx.store, { files: [fx.write('one.json', GOOD_JSON)] });
    await fx.serve();
    expect((await fx.get('/catalog/series/series.json')).status).toBe(200);
    await importLibrary(fx.store, { files: [fx.write('two.json', [{ id: 'tt5', type: 'movie', name: 'Only one' }])] });
    expect((await fx.get('/catalog/movie/movies.json')).body.metas.map((m: { id: string }) => m.id)).toEqual(['tt5']);
    expect((await fx.get('/catalog/series/series.json')).status).toBe(404);
    expect((await fx.get('/meta/movie/tt1727587.json')).status).toBe(404);
    expect((await fx.get('/manifest.json')).body.resources).toEqual([
      'catalog',
      // IMDb and generated ids are always declared, so a library of tt ids only routes mq: too.
      { name: 'meta', types: ['movie'], idPrefixes: ['mq:', 'tt'] },
    ]);
  });

  it('bounds the items of all files together', async () => {
    const a = fx.write('a.json', [
      { type: 'movie', name: 'A' },
      { type: 'movie', name: 'B' },
    ]);
    const b = fx.write('b.json', [{ type: 'movie', name: 'C' }]);
    expect(await expectImportFailed(() => importLibrary(fx.store, { files: [a, b], read: { maxItems: 2 } }))).toMatch(
      /more than the limit of 2 items/,
    );
    expect(fx.store.libraryCounts().items).toBe(0);
  });
});
