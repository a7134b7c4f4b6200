/**
 * Faults under a serving site: the disk fills up during an import (two ways: SQLite's
 * `max_page_count` on the import connection, which runs everywhere, and a real 16 MB tmpfs when
 * the test runs as root and may mount one), another process holds the database's write lock,
 * and the database file is corrupt at start. Each import fails with a clear error, the answers
 * served stay the same byte for byte, and the store works again once the fault is gone.
 * (SIGKILL during an import is src/store/{livetv,library}/atomic.test.ts.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../src/errors.js';
import { importLibrary } from '../../src/library/index.js';
import { importLiveTv } from '../../src/livetv/index.js';
import { listen, type RunningServer } from '../../src/server/index.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { bigPlaylist, smallDisk } from '../helpers/full-disk.js';
import { servedPaths, wholeAnswers } from './crawl.js';
import { createSite, type Site } from './site.js';

interface Served {
  readonly site: Site;
  readonly server: RunningServer;
  readonly paths: string[];
  readonly before: Awaited<ReturnType<typeof wholeAnswers>>;
}

async function serve(dbFile?: string): Promise<Served> {
  const site = await createSite(dbFile);
  const server = await listen(site.handler({ responseCache: false }), { port: 0 });
  const paths = await servedPaths(site.handler({ responseCache: false }));
  return { site, server, paths, before: await wholeAnswers(server.url, paths) };
}

let served: Served | undefined;
afterEach(async () => {
  await served?.server.close(100);
  served?.site.close();
  served = undefined;
});

describe('disk full during an import', () => {
  it('with max_page_count on the import connection: the import fails clearly, the answers stay, the next import works', async () => {
    served = await serve();
    const { site } = served;
    const big = join(site.dir, 'big.m3u');
    writeFileSync(big, bigPlaylist(5_000));
    // The import connection may grow the file by 20 pages at most: the disk is "full" past that.
    const pages = site.store.context.db.pragma('page_count', { simple: true }) as number;
    const openWriter = site.store.context.openWriter;
    site.store.context.openWriter = (timeout, cache) => {
      const db = openWriter(timeout, cache);
      db.pragma(`max_page_count = ${pages + 20}`);
      return db;
    };
    const version = site.store.dataVersion();
    const error = await importLiveTv(site.store, { ...site.livetv, playlists: [{ location: big }] }).catch(
      (e: unknown) => e as Error,
    );
    expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/database or disk is full/);
    expect((error as Error).message).toMatch(/previous data is still served/);
    expect(site.store.dataVersion()).toBe(version);
    expect(await wholeAnswers(served.server.url, served.paths)).toEqual(served.before);

    site.store.context.openWriter = openWriter;
    const result = await importLiveTv(site.store, { ...site.livetv, playlists: [{ location: big }] });
    expect(result.counts.channels).toBe(5_000);
  });

  const tmpfs = smallDisk('marquee-tmpfs');

  it.skipIf(tmpfs === undefined)(
    'on a real 16 MB tmpfs (root only): SQLITE_FULL fails the import clearly, the answers stay, freeing space heals',
    async () => {
      served = await serve(join(tmpfs!, 'marquee.db'));
      const { site } = served;
      const big = join(site.dir, 'big.m3u');
      writeFileSync(big, bigPlaylist(5_000));
      // Fill what is left of the tmpfs but a few pages.
      const stats = execFileSync('df', ['-B1', '--output=avail', tmpfs!]).toString().trim().split('\n');
      const free = Number(stats[stats.length - 1]);
      const filler = join(tmpfs!, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, free - 64 * 1024)));
      const version = site.store.dataVersion();
      const error = await importLiveTv(site.store, { ...site.livetv, playlists: [{ location: big }] }).catch(
        (e: unknown) => e as Error,
      );
      expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
      expect((error as Error).message).toMatch(/disk is full|database or disk is full/);
      expect(site.store.dataVersion()).toBe(version);
      expect(await wholeAnswers(served.server.url, served.paths)).toEqual(served.before);

      rmSync(filler);
      const result = await importLiveTv(site.store, { ...site.livetv, playlists: [{ location: big }] });
      expect(result.counts.channels).toBe(5_000);
    },
  );

  it.skipIf(tmpfs === undefined)(
    'on a full tmpfs (root only): serve on a new database exits 3 with the code, leaving no file',
    async () => {
      const stats = execFileSync('df', ['-B1', '--output=avail', tmpfs!]).toString().trim().split('\n');
      const filler = join(tmpfs!, 'filler-start');
      writeFileSync(filler, Buffer.alloc(Number(stats[stats.length - 1])));
      try {
        const before = readdirSync(tmpfs!);
        const library = join(import.meta.dirname, '..', '..', 'examples', 'library', 'library.json');
        const { code, stderr } = await runCli(
          ['serve', '--db', join(tmpfs!, 'new.db'), '--library', library, '--port', '0'],
          { cwd: tmpfs! },
        );
        expect(code).toBe(3);
        expect(stderr).toMatch(/new\.db: database or disk is full \[SQLITE_FULL\] .*the disk is full/);
        expect(readdirSync(tmpfs!)).toEqual(before);
      } finally {
        rmSync(filler);
      }
    },
  );
});

describe('the database locked by another process', () => {
  let holder: ChildProcess | undefined;
  afterEach(() => {
    holder?.kill('SIGKILL');
    holder = undefined;
  });

  /** Starts a process that takes the write lock of `file` and keeps it until killed. */
  async function holdLock(file: string): Promise<void> {
    const script = `
      const Database = require('better-sqlite3');
      const db = new Database(${JSON.stringify(file)});
      db.exec('BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS lock_holder (x); INSERT INTO lock_holder VALUES (1);');
      process.stdout.write('locked\\n');
      setInterval(() => {}, 1000);`;
    holder = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder!.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      holder!.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    });
  }

  it('fails imports after their lock timeout, naming the file, while the answers stay byte for byte', async () => {
    served = await serve();
    const { site } = served;
    await holdLock(site.store.file);

    let started = Date.now();
    const library = await importLibrary(site.store, {
      files: [site.files.library],
      import: { lockTimeoutMs: 400 },
    }).catch((e: unknown) => e as Error);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(isMarqueeError(library, 'IMPORT_FAILED')).toBe(true);
    expect((library as Error).message).toContain(site.store.file);
    expect((library as Error).message).toMatch(/another import is writing .* \(waited 400 ms\)/);

    started = Date.now();
    const livetv = await site.store.beginLiveTvImport({ lockTimeoutMs: 400 }).catch((e: unknown) => e as Error);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(isMarqueeError(livetv, 'IMPORT_FAILED')).toBe(true);
    expect((livetv as Error).message).toContain(site.store.file);

    // Readers are not blocked by a writer (WAL): every answer is still served as before.
    expect(await wholeAnswers(served.server.url, served.paths)).toEqual(served.before);

    holder?.kill('SIGKILL');
    await new Promise((resolve) => holder!.once('exit', resolve));
    holder = undefined;
    const again = await importLibrary(site.store, { files: [site.files.library] });
    expect(again.report.counts.items).toBeGreaterThan(0);
  });
});

describe('a corrupt database at start', () => {
  it('refuses to open with STORE_UNAVAILABLE naming the file, and leaves the file as it was', async () => {
    served = await serve();
    const file = served.site.store.file;
    served.site.store.close();
    const bytes = readFileSync(file);
    // Damage the header page: what a half-written copy or a disk error leaves.
    bytes.fill(0x5a, 0, 100);
    writeFileSync(file, bytes);
    let error: unknown;
    try {
      openStore(file);
    } catch (e) {
      error = e;
    }
    expect(isMarqueeError(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not a Marquee database or is corrupt/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    // The site's own close() must not fail on the already closed store.
    served.site.store.close();
  });
});
