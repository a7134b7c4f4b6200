import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMarqueeError, type MarqueeError } from '../errors.js';
import { openConnection } from './connection.js';
import { APPLICATION_ID, migrate } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { openStore } from './store.js';
import { at, channel, pastVersionWindow, tempDir } from './testing.js';

let tmp: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  tmp = tempDir();
  file = join(tmp.dir, 'marquee.db');
});
afterEach(() => tmp.remove());

function unavailable(run: () => unknown): MarqueeError {
  try {
    run();
  } catch (error) {
    expect(isMarqueeError(error, 'STORE_UNAVAILABLE'), String(error)).toBe(true);
    return error as MarqueeError;
  }
  throw new Error('expected STORE_UNAVAILABLE, nothing was thrown');
}

const raw = (f: string) => new Database(f);
const conn = (f: string) => openConnection(f, { busyTimeoutMs: 100, cacheKiB: 1024 });

describe('migrations', () => {
  it('creates the schema on a fresh file, in WAL mode, marked as a Marquee store', () => {
    openStore(file).close();
    const db = raw(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT name FROM schema_migrations ORDER BY version').pluck().all()).toEqual(
      MIGRATIONS.map((m) => m.name),
    );
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['imports', 'channels', 'streams', 'guide_days', 'guide_channels']));
    db.close();
  });

  it('applies only the missing steps to an existing file and keeps its data', async () => {
    const db = conn(file);
    migrate(db, file, MIGRATIONS.slice(0, 1));
    db.prepare(`INSERT INTO imports (kind, status, started_at) VALUES ('library', 'ok', 1)`).run();
    db.close();

    const store = openStore(file);
    expect(store.dataVersion()).toBe(1);
    const imp = await store.beginLiveTvImport();
    imp.addChannel(channel(1));
    imp.commit();
    store.close();

    const again = openStore(file); // nothing left to apply
    expect(again.listChannels().map((c) => c.id)).toEqual(['mq-tv:c1']);
    expect(again.dataVersion()).toBe(2);
    again.close();
  });

  it('renders the video fields of programmes stored before the video column existed, then groups them into guide days', () => {
    const db = conn(file);
    migrate(db, file, MIGRATIONS.slice(0, 3)); // the schema before livetv-002-programme-video
    db.prepare(`INSERT INTO guide_channels (id, key, names) VALUES (1, 'g1', '[]')`).run();
    db.prepare(
      `INSERT INTO channels (rid, id, name, name_norm, sort, guide_key, key_id) VALUES (1, 'mq-tv:c1', 'One', 'one', 1, 'g1', 1)`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO programmes (key_id, start, stop, prio, title, sub_title, description, categories, flags, extra) VALUES (1, ?, ?, 0, ?, ?, ?, ?, 0, ?)`,
    );
    insert.run(
      at('2030-01-10T20:00Z'),
      at('2030-01-10T21:00Z'),
      'News',
      'Late',
      'Today.',
      '["News"]',
      '{"actors":["A"]}',
    );
    insert.run(at('2030-01-10T21:00Z'), at('2030-01-10T22:00Z'), '', null, null, null, null);
    // Over midnight: it belongs to both days.
    insert.run(at('2030-01-10T23:30Z'), at('2030-01-11T00:30Z'), 'Night', null, null, null, null);
    db.close();

    const store = openStore(file);
    const around = store.programmesAround('mq-tv:c1', at('2030-01-10T00:00Z'), at('2030-01-12T00:00Z'));
    expect(around.map((p) => [p.start, p.stop, p.video])).toEqual([
      [
        at('2030-01-10T20:00Z'),
        at('2030-01-10T21:00Z'),
        { title: 'News — Late', overview: 'Today.', genres: ['News'], cast: ['A'] },
      ],
      [at('2030-01-10T21:00Z'), at('2030-01-10T22:00Z'), {}],
      [at('2030-01-10T23:30Z'), at('2030-01-11T00:30Z'), { title: 'Night' }],
    ]);
    const titlesOf = (day: string) =>
      store.guideDay({ day })[0]!.programmes.map((p) => p.video.title ?? '(channel name)');
    expect(titlesOf('2030-01-10')).toEqual(['News — Late', '(channel name)', 'Night']);
    expect(titlesOf('2030-01-11')).toEqual(['Night']);
    expect(store.context.db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'programmes'`).get()).toBeUndefined();
    store.close();
  });

  it('applies a list appended later, and rolls a failing step back entirely', () => {
    const extra: Migration = { name: 'test-001-notes', up: (db) => db.exec('CREATE TABLE notes (x)') };
    const broken: Migration = {
      name: 'test-002-broken',
      up: (db) => {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('step failed');
      },
    };
    openStore(file).close();
    const db = conn(file);
    migrate(db, file, [...MIGRATIONS, extra]);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    const error = unavailable(() => migrate(db, file, [...MIGRATIONS, extra, broken]));
    expect(error.message).toContain('step failed');
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    expect(db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'half_done'`).get()).toBeUndefined();
    db.close();
  });

  it('refuses a file from a newer Marquee and one whose steps were recorded in another order', () => {
    openStore(file).close();
    const db = conn(file);
    expect(unavailable(() => migrate(db, file, MIGRATIONS.slice(0, 1))).message).toMatch(/newer Marquee/);
    const renamed = MIGRATIONS.map((m, i) => (i === 0 ? { ...m, name: 'other-001' } : m));
    expect(unavailable(() => migrate(db, file, renamed)).message).toMatch(/expects "other-001"/);
    db.close();
  });
});

describe('data version', () => {
  it("changes at once with an import through the same store, and within the window with another connection's", async () => {
    const store = openStore(file);
    const other = openStore(file);
    try {
      expect(store.dataVersion()).toBe(0);
      expect(other.dataVersion()).toBe(0);
      const imp = await store.beginLiveTvImport();
      imp.addChannel(channel(1));
      imp.commit();
      expect(store.dataVersion()).toBe(1); // no wait: the store saw its own writer
      await pastVersionWindow();
      expect(other.dataVersion()).toBe(1);
      const again = await other.beginLiveTvImport();
      again.addChannel(channel(2));
      again.commit();
      await pastVersionWindow();
      expect(store.dataVersion()).toBe(2);
      expect(other.dataVersion()).toBe(2);
    } finally {
      other.close();
      store.close();
    }
  });
});

describe('opening', () => {
  it('creates new stores with 16 KiB pages and opens older ones with the page size they have', async () => {
    openStore(file).close();
    const created = raw(file);
    expect(created.pragma('page_size', { simple: true })).toBe(16 * 1024);
    created.close();

    const older = join(tmp.dir, 'older.db');
    const db = raw(older);
    db.pragma('page_size = 4096');
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE placeholder (x); DROP TABLE placeholder;');
    db.close();
    const store = openStore(older);
    const imp = await store.beginLiveTvImport();
    imp.addChannel(channel(1));
    imp.commit();
    expect(store.countChannels()).toBe(1);
    expect(store.context.db.pragma('page_size', { simple: true })).toBe(4096);
    store.close();
  });

  it('maps the file for the read connection (1 GiB by default, 0 turns it off) and reads each import whole through the map', async () => {
    const store = openStore(file);
    expect(store.context.db.pragma('mmap_size', { simple: true })).toBe(1024 * 1024 * 1024);
    for (const count of [50, 3_000, 20]) {
      // The file grows past the pages mapped at the first read, then most rows are deleted.
      const imp = await store.beginLiveTvImport();
      for (let i = 1; i <= count; i++) imp.addChannel(channel(i, { name: `Channel number ${i} `.repeat(6) }));
      imp.commit();
      expect(store.countChannels()).toBe(count);
      expect(store.listChannels({ offset: count - 1, limit: 5 }).map((c) => c.id)).toEqual([`mq-tv:c${count}`]);
    }
    store.close();
    const unmapped = openStore(file, { mmapMiB: 0 });
    expect(unmapped.context.db.pragma('mmap_size', { simple: true })).toBe(0);
    expect(unmapped.countChannels()).toBe(20);
    unmapped.close();
  });

  it('refuses a file that is not a database, naming it, and leaves it untouched', () => {
    const garbage = Buffer.from('this is not SQLite at all\n'.repeat(400));
    writeFileSync(file, garbage);
    const error = unavailable(() => openStore(file));
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a Marquee database or is corrupt.*rebuild/);
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('finds damage inside the file with the integrity check, on demand or at open', async () => {
    const store = openStore(file);
    const imp = await store.beginLiveTvImport();
    for (let i = 1; i <= 2_000; i++) imp.addChannel(channel(i, { name: `Channel number ${i} `.repeat(8) }));
    imp.commit();
    expect(store.check()).toEqual({ ok: true, problems: [] });
    store.close();

    const size = statSync(file).size;
    const bytes = readFileSync(file);
    // Overwrite pages in the middle (the header stays valid, so opening alone does not notice).
    bytes.fill(0xa5, Math.floor(size / 3), Math.floor(size / 3) + 16 * 4096);
    writeFileSync(file, bytes);
    const error = unavailable(() => openStore(file, { check: true }));
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/integrity check failed|corrupt/);
  });

  it('refuses an SQLite file of another program instead of adding tables to it', () => {
    const other = raw(file);
    other.exec('CREATE TABLE invoices (id INTEGER)');
    other.close();
    expect(unavailable(() => openStore(file)).message).toMatch(/another program/);
  });

  it('waits the busy timeout for a lock held by another process, then says so', () => {
    const holder = raw(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('BEGIN IMMEDIATE; CREATE TABLE lock_holder (x);');
    const started = Date.now();
    const error = unavailable(() => openStore(file, { busyTimeoutMs: 150 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(error.message).toMatch(/locked by another process/);
    expect(error.message).toContain(file);
    holder.exec('ROLLBACK');
    holder.close();
    openStore(file).close();
  });

  it('says when the folder does not exist', () => {
    const missing = join(tmp.dir, 'no-such-dir', 'x.db');
    expect(unavailable(() => openStore(missing)).message).toMatch(/folder must exist/);
    mkdirSync(join(tmp.dir, 'no-such-dir'));
    openStore(missing).close();
  });
});
