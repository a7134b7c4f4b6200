import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStoreChild } from '../../../test/helpers/store-child.js';
import { isMarqueeError } from '../../errors.js';
import { openStore, type Store } from '../store.js';
import { at, channel, pastVersionWindow, programme, snapshot, tempDir } from '../testing.js';

const NOW = at('2030-01-10T12:00:00Z');
const DAYS = ['2030-01-09', '2030-01-10', '2030-01-11'];
const HOUR = 3_600_000;

let tmp: ReturnType<typeof tempDir>;
let file: string;
let store: Store;

/** The "previous data": 20 channels in two groups, two streams each, a day of half-hour programmes. */
async function importPrevious(target: Store) {
  const imp = await target.beginLiveTvImport({ now: NOW });
  for (let i = 1; i <= 20; i++) {
    imp.addChannel(
      channel(i, {
        group: i % 2 ? 'Odd' : 'Even',
        streams: [{ url: `http://127.0.0.1/${i}/a` }, { url: `http://127.0.0.1/${i}/b`, userAgent: 'UA' }],
      }),
    );
    imp.addProgrammes(
      Array.from({ length: 48 }, (_, h) =>
        programme(`g${i}`, NOW + (h - 24) * HOUR * 0.5, NOW + (h - 23) * HOUR * 0.5, `old ${i}.${h}`),
      ),
    );
  }
  return imp.commit();
}

beforeEach(async () => {
  tmp = tempDir();
  file = join(tmp.dir, 'store.db');
  store = openStore(file);
  await importPrevious(store);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

describe('atomic live-TV import', () => {
  it('keeps serving the previous data exactly after an import that throws midway', async () => {
    const before = snapshot(store, DAYS);
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(100, { name: 'New' }));
    imp.addProgrammes([programme('g100', NOW, NOW + HOUR, 'new')]);
    // A bad record from the backend: the import ends and says why.
    expect(() => imp.addChannel(channel(100))).toThrow(/duplicate channel id "mq-tv:c100"/);
    expect(imp.finished).toBe(true);
    expect(() => imp.commit()).toThrow(/already finished/);
    expect(snapshot(store, DAYS)).toEqual(before);

    // The caller's own code throws between two steps: it aborts.
    const second = await store.beginLiveTvImport({ now: NOW });
    try {
      second.addChannel(channel(200));
      throw new Error('the playlist download broke');
    } catch (error) {
      second.abort(`refresh failed: ${(error as Error).message}`);
    }
    expect(snapshot(store, DAYS)).toEqual(before);
    expect(store.importHistory(3).map((r) => [r.status, r.report])).toEqual([
      ['failed', { reason: 'refresh failed: the playlist download broke' }],
      ['failed', { reason: expect.stringContaining('duplicate channel id') }],
      ['ok', expect.objectContaining({ counts: expect.objectContaining({ channels: 20 }) })],
    ]);
  });

  it('refuses to commit an import with zero channels and keeps the previous data', async () => {
    const before = snapshot(store, DAYS);
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addGuideChannel({ id: 'g1', displayNames: [{ text: 'One' }] });
    imp.addProgrammes([programme('g1', NOW, NOW + HOUR, 'orphan')]);
    try {
      imp.commit();
      expect.unreachable();
    } catch (error) {
      expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
      expect((error as Error).message).toMatch(/holds no channel.*previous data is still served/);
    }
    expect(snapshot(store, DAYS)).toEqual(before);
    expect(store.lastImport()).toMatchObject({ status: 'failed', report: { reason: expect.stringContaining(file) } });
  });

  it('lets a reader opened before the import see the old data until the commit', async () => {
    const reader = openStore(file);
    const before = snapshot(reader, DAYS);
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1, { name: 'Renamed' }));
    imp.addProgrammes([programme('g1', NOW, NOW + HOUR, 'new programme')]);
    expect(snapshot(reader, DAYS)).toEqual(before);
    expect(snapshot(store, DAYS)).toEqual(before); // the store's own read connection too
    imp.commit();
    expect(reader.listChannels().map((c) => c.name)).toEqual(['Renamed']);
    await pastVersionWindow(); // another connection's commit: seen within the window
    expect(reader.dataVersion()).toBeGreaterThan(before.dataVersion);
    expect(reader.programmesAround('mq-tv:c1', NOW, NOW + 1).map((p) => p.video.title)).toEqual(['new programme']);
    reader.close();
  });

  it('lets only one import write at a time without blocking the event loop while waiting', async () => {
    const first = await store.beginLiveTvImport({ now: NOW });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    await expect(store.beginLiveTvImport({ lockTimeoutMs: 300 })).rejects.toThrow(/another import is writing/);
    clearInterval(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(ticks).toBeGreaterThan(5);
    first.addChannel(channel(1));
    first.commit();
    expect(store.countChannels()).toBe(1);
  });

  it('aborts an open import when the store is closed', async () => {
    const before = snapshot(store, DAYS);
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1, { name: 'never served' }));
    store.close();
    expect(imp.finished).toBe(true);
    store = openStore(file);
    expect(snapshot(store, DAYS)).toEqual(before);
    expect(store.lastImport()?.report).toEqual({ reason: 'the store was closed before the import was committed' });
  });

  it('survives a SIGKILL of the importing process midway and reports the interrupted import', async () => {
    const before = snapshot(store, DAYS);
    const walBefore = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    const child = runStoreChild(join(tmp.dir, 'build'), KILL_MIDWAY, file);
    const { signal, stdout } = await child;
    expect(signal).toBe('SIGKILL');
    const walDuringImport = Number(/wal (\d+)/.exec(stdout)?.[1]);
    // The child wrote uncommitted pages to the WAL before it died: the kill really hit a write.
    expect(walDuringImport).toBeGreaterThan(walBefore + 256 * 1024);

    store.close();
    store = openStore(file);
    expect(snapshot(store, DAYS)).toEqual(before);
    expect(store.check().ok).toBe(true);
    expect(store.lastImport()?.status).toBe('running');
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.commit();
    expect(store.importHistory(3).map((r) => r.status)).toEqual(['ok', 'interrupted', 'ok']);
  });
});

/** The child: starts an import, writes part of it, reports the WAL size and kills itself before commit. */
const KILL_MIDWAY = `
import { statSync } from 'node:fs';
import { openStore } from './src/store/index.js';
import { channel, programme } from './src/store/testing.js';
const [file, now] = [process.argv[2], ${NOW}];
const store = openStore(file);
// A small page cache makes SQLite spill uncommitted pages into the WAL file before the kill;
// 28 MB of programmes are more than the import holds in memory before writing guide days.
const imp = await store.beginLiveTvImport({ now, cacheKiB: 256 });
const descriptions = [{ text: 'x'.repeat(2000) }];
for (let i = 1; i <= 300; i++) {
  imp.addChannel(channel(i, { name: 'from the killed import ' + i }));
  imp.addProgrammes(Array.from({ length: 48 }, (_, h) => programme('g' + i, now + h * 3600000, now + (h + 1) * 3600000, 'killed ' + h, { descriptions })));
}
process.stdout.write('wal ' + statSync(file + '-wal').size + '\\n');
process.kill(process.pid, 'SIGKILL');
`;
