/**
 * Every failure shows in the exit code (issue 38): `marquee import` exits 1 whenever a part (live
 * TV, library) failed or a source was kept from last good, whatever else imported, and its last
 * line says which; `marquee status` lists every configured source, those never imported too, and
 * exits 1 when any failed. The four cases the issue found exiting 0: a live-TV import that hits a
 * full disk (on a real small tmpfs when the test may mount one, and with SQLite's
 * `max_page_count`, which runs everywhere), a first import whose only playlist is an HTML page,
 * an import that waits for another process holding the write lock (bounded by
 * `import.lockTimeoutSeconds`), and a bad library beside a good playlist; each beside a good part.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAll } from '../../src/cli/app.js';
import { importVerdict } from '../../src/cli/report.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { excerpt } from '../helpers/corpus.js';
import { bigPlaylist, smallDisk } from '../helpers/full-disk.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** A real-world playlist (iptv-org) and library (films from Wikipedia): excerpts of the shared corpus. */
const PLAYLIST = excerpt('playlists', 'iptv-org-gp.m3u');
const LIBRARY = excerpt('library', 'marquee-movies.json');
/** What a misconfigured web server answers instead of a playlist. */
const HTML_PAGE = `<!DOCTYPE html>
<html><head><title>404 Not Found</title></head>
<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p>
https://example.org/only-a-url-on-a-line
</body></html>
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-exit-'));
  copyFileSync(PLAYLIST, join(dir, 'tv.m3u'));
  copyFileSync(LIBRARY, join(dir, 'movies.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, { cwd: dir });
const lastLine = (text: string) => text.trim().split('\n').at(-1);

describe('marquee import and status exit 1 when a part fails beside a good one', () => {
  it('a first import whose only playlist is an HTML page, beside a good library', async () => {
    writeFileSync(join(dir, 'bad.m3u'), HTML_PAGE);
    const result = await cli('import', '--playlist', 'bad.m3u', '--library', 'movies.json');
    expect(result.stdout).toMatch(/^live TV: import failed: .*bad\.m3u is an HTML page, not a playlist/m);
    expect(result.stdout).toMatch(/^library: [\d,]+ movies/m);
    expect(lastLine(result.stdout)).toBe('exit 1: live TV failed (what it served before stays served)');
    expect(result.code).toBe(1);

    const status = await cli('status', '--playlist', 'bad.m3u', '--library', 'movies.json');
    expect(status.stdout).toMatch(
      /^NONE playlist .*bad\.m3u\n {7}last attempt: .*none: is an HTML page, not a playlist/m,
    );
    expect(status.stdout).toMatch(/^ok {3}library .*movies\.json/m);
    expect(status.code).toBe(1);

    // Fixed, the same import exits 0 and says so.
    copyFileSync(PLAYLIST, join(dir, 'bad.m3u'));
    const fixed = await cli('import', '--playlist', 'bad.m3u', '--library', 'movies.json');
    expect(lastLine(fixed.stdout)).toBe('exit 0: every part and every source imported');
    expect(fixed.code).toBe(0);
    expect((await cli('status', '--playlist', 'bad.m3u', '--library', 'movies.json')).code).toBe(0);
  });

  it('a bad library beside a good playlist', async () => {
    expect((await cli('import', '--playlist', 'tv.m3u', '--library', 'movies.json')).code).toBe(0);
    // The library file replaced by what another program wrote under its name.
    writeFileSync(join(dir, 'movies.json'), JSON.stringify({ version: 3, settings: { theme: 'dark' } }));
    const result = await cli('import', '--playlist', 'tv.m3u', '--library', 'movies.json');
    expect(result.stdout).toMatch(/^live TV: [\d,]+ channels/m);
    expect(result.stdout).toMatch(/^ {2}kept: library .*movies\.json holds no usable item/m);
    expect(lastLine(result.stdout)).toBe('exit 1: 1 library source kept from its last good import');
    expect(result.code).toBe(1);
    const status = await cli('status', '--playlist', 'tv.m3u', '--library', 'movies.json');
    expect(status.stdout).toMatch(/^KEPT library .*movies\.json/m);
    expect(status.code).toBe(1);

    // A library that never imported and fails as a whole: the part fails, the playlist imports.
    writeFileSync(join(dir, 'other.json'), HTML_PAGE);
    const first = await cli('import', '--db', 'other.db', '--playlist', 'tv.m3u', '--library', 'other.json');
    expect(first.stdout).toMatch(/^live TV: [\d,]+ channels/m);
    expect(first.stdout).toMatch(/^library: import failed: no usable item in .*other\.json/m);
    expect(lastLine(first.stdout)).toBe('exit 1: library failed (what it served before stays served)');
    expect(first.code).toBe(1);
    const other = await cli('status', '--db', 'other.db', '--playlist', 'tv.m3u', '--library', 'other.json');
    expect(other.stdout).toMatch(/^NONE library .*other\.json/m);
    expect(other.code).toBe(1);
  });

  it('a held write lock: the import fails after import.lockTimeoutSeconds, and status names the new source', async () => {
    writeFileSync(join(dir, 'marquee.yaml'), 'livetv: { playlists: [tv.m3u] }\nlibrary: { files: [movies.json] }\n');
    expect((await cli('import')).code).toBe(0);
    // The operator adds a playlist; meanwhile another process writes the database.
    writeFileSync(join(dir, 'news.m3u'), '#EXTM3U\n#EXTINF:-1 tvg-id="news.xx",News\nhttps://news.example/live.m3u8\n');
    writeFileSync(
      join(dir, 'marquee.yaml'),
      'livetv: { playlists: [tv.m3u, news.m3u] }\nlibrary: { files: [movies.json] }\nimport: { lockTimeoutSeconds: 0.5 }\n',
    );
    const holder = await holdWriteLock(join(dir, 'marquee.db'));
    try {
      const started = Date.now();
      const result = await cli('import');
      // Bounded by the setting (0.5 s per part), not the 60 s default.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(result.stdout).toMatch(
        /^live TV: import failed: .*another import is writing .*marquee\.db \(waited 500 ms\)/m,
      );
      expect(result.stdout).toMatch(
        /^library: import failed: .*another import is writing .*marquee\.db \(waited 500 ms\)/m,
      );
      expect(lastLine(result.stdout)).toBe(
        'exit 1: live TV failed (what it served before stays served); library failed (what it served before stays served)',
      );
      expect(result.code).toBe(1);
      // Nothing could be written while the lock was held: the new playlist is listed as never imported.
      const status = await cli('status');
      expect(status.stdout).toMatch(
        /^NONE playlist .*news\.m3u\n {7}last attempt: none recorded \(configured, never imported\)/m,
      );
      expect(status.code).toBe(1);
      expect(JSON.parse((await cli('status', '--json')).stdout)).toMatchObject({
        ok: false,
        sources: expect.arrayContaining([
          {
            kind: 'playlist',
            source: join(dir, 'news.m3u'),
            area: 'livetv',
            serving: 'nothing (it never imported)',
            ok: false,
          },
        ]),
      });
    } finally {
      await release(holder);
    }
    expect((await cli('import')).code).toBe(0);
    expect((await cli('status')).code).toBe(0);
  });

  it('a full disk, with SQLite max_page_count on the import connection (runs everywhere): the verdict is exit 1', async () => {
    const db = join(dir, 'marquee.db');
    expect((await cli('import', '--playlist', 'tv.m3u', '--library', 'movies.json')).code).toBe(0);
    writeFileSync(join(dir, 'big.m3u'), bigPlaylist(5_000));
    const store = openStore(db);
    try {
      // The import connections may grow the file by 20 pages at most: the disk is "full" past that.
      const pages = store.context.db.pragma('page_count', { simple: true }) as number;
      const openWriter = store.context.openWriter;
      store.context.openWriter = (timeout, cache) => {
        const writer = openWriter(timeout, cache);
        writer.pragma(`max_page_count = ${pages + 20}`);
        return writer;
      };
      // What `marquee import` runs, and the verdict it prints and exits with.
      const outcome = await importAll(store, {
        livetv: { playlists: [join(dir, 'big.m3u')] },
        library: { files: [join(dir, 'movies.json')] },
      });
      expect(outcome.livetv && 'error' in outcome.livetv && outcome.livetv.error.message).toMatch(
        /database or disk is full \[SQLITE_FULL\]/,
      );
      expect(outcome.library && !('error' in outcome.library)).toBe(true);
      expect(importVerdict(outcome)).toEqual({
        code: 1,
        line: 'exit 1: live TV failed (what it served before stays served)',
      });
    } finally {
      store.close();
    }
    const status = await cli('status', '--playlist', 'big.m3u', '--library', 'movies.json');
    expect(status.stdout).toMatch(/^NONE playlist .*big\.m3u\n {7}last attempt: .*none: not imported: .*SQLITE_FULL/m);
    expect(status.code).toBe(1);
  });

  const mountPoint = smallDisk('marquee-exit-tmpfs');

  it.skipIf(mountPoint === undefined)(
    'a full disk, on a real 16 MB tmpfs (root only): SQLITE_FULL in live TV, the library imports',
    async () => {
      const db = join(mountPoint!, 'marquee.db');
      // The demo library (a few KB): the corpus's films would fill most of the 16 MB with their copy.
      copyFileSync(join(ROOT, 'examples', 'library', 'library.json'), join(dir, 'movies.json'));
      expect((await cli('import', '--db', db, '--playlist', 'tv.m3u', '--library', 'movies.json')).code).toBe(0);
      const big = join(dir, 'big.m3u');
      writeFileSync(big, bigPlaylist(5_000));
      // Room for the playlist's copy beside the database and a little more: not for its channels.
      const avail = Number(
        execFileSync('df', ['-B1', '--output=avail', mountPoint!]).toString().trim().split('\n').at(-1),
      );
      const filler = join(mountPoint!, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, avail - statSync(big).size - 256 * 1024)));
      const result = await cli('import', '--db', db, '--playlist', 'big.m3u', '--library', 'movies.json');
      expect(result.stdout).toMatch(/^live TV: import failed: .*database or disk is full \[SQLITE_FULL\]/m);
      expect(result.stdout).toMatch(/^library: [\d,]+ movies/m);
      expect(lastLine(result.stdout)).toBe('exit 1: live TV failed (what it served before stays served)');
      expect(result.code).toBe(1);
      const status = await cli('status', '--db', db, '--playlist', 'big.m3u', '--library', 'movies.json');
      expect(status.stdout).toMatch(/^NONE playlist .*big\.m3u\n {7}last attempt: .*not imported: .*SQLITE_FULL/m);
      expect(status.code).toBe(1);

      rmSync(filler);
      const healed = await cli('import', '--db', db, '--playlist', 'big.m3u', '--library', 'movies.json');
      expect(lastLine(healed.stdout)).toBe('exit 0: every part and every source imported');
      expect(healed.code).toBe(0);
      expect((await cli('status', '--db', db, '--playlist', 'big.m3u', '--library', 'movies.json')).code).toBe(0);
    },
  );
});

/** Starts a process that takes the write lock of `file` and keeps it until killed. */
async function holdWriteLock(file: string): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS lock_holder (x); INSERT INTO lock_holder VALUES (1);');
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);`;
  const holder = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    holder.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return holder;
}

async function release(holder: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  holder.kill('SIGKILL');
  await exited;
}
