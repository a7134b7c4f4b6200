/**
 * `fastFirstImport`: a new store is filled by its first import in rollback-journal mode and is in
 * WAL mode once that import ends (committed or not); a store that exists stays in WAL mode
 * throughout; a process killed in the middle of that first import leaves a store that opens
 * empty and takes the next import.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStoreChild } from '../../test/helpers/store-child.js';
import { openStore } from './store.js';
import { at, channel, programme, tempDir } from './testing.js';

const NOW = at('2030-01-10T12:00:00Z');
const HOUR = 3_600_000;

let tmp: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  tmp = tempDir();
  file = join(tmp.dir, 'marquee.db');
});
afterEach(() => tmp.remove());

/** The journal mode written in the file, read by a connection of its own. */
function journalMode(): string {
  const db = new Database(file, { readonly: true });
  try {
    return String(db.pragma('journal_mode', { simple: true }));
  } finally {
    db.close();
  }
}

describe('fastFirstImport', () => {
  it('fills a new store without the WAL, then leaves it in WAL mode with the data', async () => {
    const store = openStore(file, { fastFirstImport: true });
    expect(journalMode()).toBe('delete');
    const imp = await store.beginLiveTvImport({ now: NOW });
    for (let i = 1; i <= 50; i++) {
      imp.addChannel(channel(i));
      imp.addProgrammes(
        Array.from({ length: 24 }, (_, h) =>
          programme(`g${i}`, NOW + h * HOUR, NOW + (h + 1) * HOUR, `show ${i}.${h}`, {
            descriptions: [{ text: 'd'.repeat(500) }],
          }),
        ),
      );
    }
    imp.commit();
    // The import's pages went to the file itself: no WAL grew meanwhile.
    expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(journalMode()).toBe('wal');
    expect(store.listChannels()).toHaveLength(50);
    store.close();

    const again = openStore(file);
    expect(again.listChannels()).toHaveLength(50);
    expect(again.check().ok).toBe(true);
    // The next import is a WAL one, with readers beside it as always.
    const next = await again.beginLiveTvImport({ now: NOW });
    next.addChannel(channel(1));
    expect(again.listChannels()).toHaveLength(50);
    next.commit();
    expect(again.listChannels()).toHaveLength(1);
    again.close();
  });

  it('turns WAL on after a first import that failed, and keeps nothing of it', async () => {
    const store = openStore(file, { fastFirstImport: true });
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.abort('the source was bad');
    expect(journalMode()).toBe('wal');
    expect(store.listChannels()).toEqual([]);
    expect(store.lastImport()?.status).toBe('failed');
    store.close();
  });

  it('leaves a store that already exists in WAL mode', async () => {
    openStore(file).close();
    const store = openStore(file, { fastFirstImport: true });
    expect(journalMode()).toBe('wal');
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.commit();
    expect(journalMode()).toBe('wal');
    store.close();
  });

  it('treats an empty file as new', async () => {
    writeFileSync(file, '');
    const store = openStore(file, { fastFirstImport: true });
    expect(journalMode()).toBe('delete');
    store.close();
  });

  it('survives a SIGKILL in the middle of the first import: the store opens empty, in WAL mode', async () => {
    const { signal, stdout } = await runStoreChild(join(tmp.dir, 'build'), KILL_MIDWAY, file);
    expect(signal).toBe('SIGKILL');
    // The child had written part of its import into the file, with a journal to undo it.
    expect(stdout).toMatch(/journal true/);
    expect(Number(/size (\d+)/.exec(stdout)?.[1])).toBeGreaterThan(1024 * 1024);

    const store = openStore(file);
    expect(existsSync(`${file}-journal`)).toBe(false);
    expect(journalMode()).toBe('wal');
    expect(store.check().ok).toBe(true);
    expect(store.listChannels()).toEqual([]);
    expect(store.lastImport()?.status).toBe('running');
    const imp = await store.beginLiveTvImport({ now: NOW });
    imp.addChannel(channel(1));
    imp.commit();
    expect(store.listChannels()).toHaveLength(1);
    expect(store.importHistory(2).map((r) => r.status)).toEqual(['ok', 'interrupted']);
    store.close();
  });
});

/** The child: a first import into a new store, killed before its commit once pages reached the file. */
const KILL_MIDWAY = `
import { existsSync, statSync } from 'node:fs';
import { openStore } from './src/store/index.js';
import { channel, programme } from './src/store/testing.js';
const [file, now] = [process.argv[2], ${NOW}];
const store = openStore(file, { fastFirstImport: true });
const imp = await store.beginLiveTvImport({ now, cacheKiB: 256 });
const descriptions = [{ text: 'x'.repeat(2000) }];
for (let i = 1; i <= 300; i++) {
  imp.addChannel(channel(i, { name: 'from the killed import ' + i }));
  imp.addProgrammes(Array.from({ length: 48 }, (_, h) => programme('g' + i, now + h * 3600000, now + (h + 1) * 3600000, 'killed ' + h, { descriptions })));
}
process.stdout.write('journal ' + existsSync(file + '-journal') + ' size ' + statSync(file).size + '\\n');
process.kill(process.pid, 'SIGKILL');
`;
