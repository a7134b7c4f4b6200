import { join } from 'node:path';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStoreChild } from '../../../test/helpers/store-child.js';
import { isMarqueeError } from '../../errors.js';
import { type LibraryItem, LibraryItemSchema } from '../../sources/library/item.js';
import { openStore, type Store } from '../store.js';
import { channel, snapshot as liveTvSnapshot, pastVersionWindow, tempDir } from '../testing.js';

/**
 * The library import keeps the live-TV import's promises: a throw, an abort, zero items or a
 * SIGKILL midway leave the previous library served exactly; live-TV and library imports never
 * touch each other's data; every committed import changes dataVersion.
 */

let tmp: ReturnType<typeof tempDir>;
let file: string;
let store: Store;

const item = (input: Record<string, unknown>): LibraryItem => v.parse(LibraryItemSchema, input);

function movie(n: number, more: Record<string, unknown> = {}): LibraryItem {
  return item({
    id: `tt${1000 + n}`,
    type: 'movie',
    name: `Movie ${n}`,
    released: 2000 + (n % 20),
    genres: [n % 2 ? 'Odd' : 'Even'],
    streams: [{ url: `https://media.example/${n}.mp4` }],
    subtitles: [{ url: `https://media.example/${n}.srt`, lang: 'eng' }],
    ...more,
  });
}

const SHOW = () =>
  item({
    id: 'mq:show',
    type: 'series',
    name: 'Show',
    videos: [{ season: 1, episode: 1, streams: [{ url: 'https://media.example/show-1.mp4' }] }],
  });

/** Everything the library part of `s` serves, for exact before/after comparisons. */
function librarySnapshot(s: Store) {
  const movies = s.libraryPage({ type: 'movie', limit: 100 });
  return {
    movies,
    series: s.libraryPage({ type: 'series' }),
    search: s.libraryPage({ type: 'movie', search: 'movie' }),
    genres: s.libraryGenres('movie'),
    metas: movies.map((m) => s.libraryMeta('movie', m.id)),
    show: s.libraryMeta('series', 'mq:show'),
    streams: [...movies.map((m) => s.libraryStreams('movie', m.id)), s.libraryStreams('series', 'mq:show:1:1')],
    subtitles: movies.map((m) => s.librarySubtitles('movie', m.id)),
    info: s.libraryInfo(),
    dataVersion: s.dataVersion(),
  };
}

async function importPrevious(target: Store) {
  const imp = await target.beginLibraryImport();
  for (let i = 1; i <= 30; i++) imp.addItem(movie(i));
  imp.addItem(SHOW());
  return imp.commit();
}

beforeEach(async () => {
  tmp = tempDir('marquee-library-store-');
  file = join(tmp.dir, 'store.db');
  store = openStore(file);
  await importPrevious(store);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

describe('atomic library import', () => {
  it('keeps serving the previous library exactly after an import that throws midway or is aborted', async () => {
    const before = librarySnapshot(store);
    expect(before.movies).toHaveLength(30);
    const imp = await store.beginLibraryImport();
    imp.addItem(movie(100, { name: 'New' }));
    expect(() => imp.addItem(movie(100))).toThrow(/duplicate id "tt1100"/);
    expect(imp.finished).toBe(true);
    expect(() => imp.commit()).toThrow(/already finished/);
    expect(librarySnapshot(store)).toEqual(before);

    const second = await store.beginLibraryImport();
    second.addItem(movie(200));
    second.abort('refresh failed: the file vanished');
    expect(librarySnapshot(store)).toEqual(before);
    expect(store.libraryImportHistory(3).map((r) => [r.status, r.report])).toEqual([
      ['failed', { reason: 'refresh failed: the file vanished' }],
      ['failed', { reason: expect.stringContaining('duplicate id') }],
      ['ok', expect.objectContaining({ counts: expect.objectContaining({ items: 31 }) })],
    ]);
  });

  it('refuses to commit an import with zero items', async () => {
    const before = librarySnapshot(store);
    const imp = await store.beginLibraryImport();
    try {
      imp.commit();
      expect.unreachable();
    } catch (error) {
      expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
      expect((error as Error).message).toMatch(/holds no item.*previous library is still served/);
    }
    expect(librarySnapshot(store)).toEqual(before);
  });

  it('refuses an episode id already used by an item', async () => {
    const imp = await store.beginLibraryImport();
    imp.addItem(movie(1, { id: 'mq:show:1:1' }));
    expect(imp.hasId('mq:show:1:1')).toBe(true);
    expect(() => imp.addItem(SHOW())).toThrow(/duplicate id "mq:show:1:1" \(episode\)/);
  });

  it('lets a reader opened before the import see the old library until the commit', async () => {
    const reader = openStore(file);
    const before = librarySnapshot(reader);
    const imp = await store.beginLibraryImport();
    imp.addItem(movie(1, { name: 'Renamed' }));
    expect(librarySnapshot(reader)).toEqual(before);
    imp.commit();
    expect(reader.libraryPage({ type: 'movie' }).map((m) => m.name)).toEqual(['Renamed']);
    expect(reader.libraryPage({ type: 'series' })).toEqual([]);
    await pastVersionWindow(); // another connection's commit: seen within the window
    expect(reader.dataVersion()).toBeGreaterThan(before.dataVersion);
    reader.close();
  });

  it('keeps live-TV data through a library import and library data through a live-TV import', async () => {
    const tv = await store.beginLiveTvImport();
    tv.addChannel(channel(1));
    tv.commit();
    const tvBefore = liveTvSnapshot(store, ['2030-01-01']);
    const libraryBefore = librarySnapshot(store);

    const tv2 = await store.beginLiveTvImport();
    tv2.addChannel(channel(2));
    tv2.commit();
    expect({ ...librarySnapshot(store), dataVersion: 0 }).toEqual({ ...libraryBefore, dataVersion: 0 });
    expect(store.dataVersion()).toBeGreaterThan(libraryBefore.dataVersion);

    const tvNow = liveTvSnapshot(store, ['2030-01-01']);
    const lib = await store.beginLibraryImport();
    lib.addItem(movie(77));
    lib.commit();
    expect({ ...liveTvSnapshot(store, ['2030-01-01']), dataVersion: 0 }).toEqual({ ...tvNow, dataVersion: 0 });
    expect(store.listChannels().map((c) => c.id)).toEqual(['mq-tv:c2']);
    expect(tvBefore.channels.map((c) => c.id)).toEqual(['mq-tv:c1']);
  });

  it('waits for a live-TV import to finish before starting, without blocking the event loop', async () => {
    const tv = await store.beginLiveTvImport();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await expect(store.beginLibraryImport({ lockTimeoutMs: 200 })).rejects.toThrow(/another import is writing/);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    tv.abort('test');
    const imp = await store.beginLibraryImport({ lockTimeoutMs: 200 });
    imp.addItem(movie(1));
    imp.commit();
  });

  it('aborts an open import when the store is closed', async () => {
    const before = librarySnapshot(store);
    const imp = await store.beginLibraryImport();
    imp.addItem(movie(1, { name: 'never served' }));
    store.close();
    expect(imp.finished).toBe(true);
    store = openStore(file);
    expect(librarySnapshot(store)).toEqual(before);
  });

  it('survives a SIGKILL of the importing process midway', async () => {
    const before = librarySnapshot(store);
    const { signal, stdout } = await runStoreChild(join(tmp.dir, 'build'), KILL_MIDWAY, file);
    expect(signal).toBe('SIGKILL');
    // The child wrote uncommitted pages to the WAL before it died: the kill really hit a write.
    expect(Number(/wal (\d+)/.exec(stdout)?.[1])).toBeGreaterThan(256 * 1024);
    store.close();
    store = openStore(file);
    expect(librarySnapshot(store)).toEqual(before);
    expect(store.check().ok).toBe(true);
    expect(store.libraryImportHistory(1)[0]?.status).toBe('running');
    const imp = await store.beginLibraryImport();
    imp.addItem(movie(1));
    imp.commit();
    expect(store.libraryImportHistory(3).map((r) => r.status)).toEqual(['ok', 'interrupted', 'ok']);
  });
});

/** The child: starts an import, writes part of it, reports the WAL size and kills itself before commit. */
const KILL_MIDWAY = `
import { statSync } from 'node:fs';
import { openStore } from './src/store/index.js';
const store = openStore(process.argv[2]);
// A small page cache makes SQLite spill uncommitted pages into the WAL file before the kill.
const imp = await store.beginLibraryImport({ cacheKiB: 256 });
for (let i = 1; i <= 3000; i++) {
  imp.addItem({ id: 'tt' + (5000 + i), type: 'movie', name: 'killed ' + i, description: 'x'.repeat(400),
    genres: ['Killed'], cast: [], director: [], adult: false, streams: [{ url: 'https://k.example/' + i }],
    subtitles: [], videos: [] });
}
process.stdout.write('wal ' + statSync(process.argv[2] + '-wal').size + '\\n');
process.kill(process.pid, 'SIGKILL');
`;
