/**
 * `marquee export` deletes only what it wrote (issue 38): its marker lists every file it wrote,
 * the next export removes those and nothing else, anything else at any depth makes it refuse with
 * the paths named, and `--force` replaces the folder but never deletes a database, a key ring
 * (by its name or its content) or a file with a SQLite header, wherever it is. Exports written
 * before markers listed their files are judged by the shape of an export's files. A file that
 * appears while an export runs is not deleted either.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExampleAddon } from '../../examples/example-addon.js';
import { exportAddon, MARKER_FILE } from '../../src/export/index.js';
import { generateKeyRing, serializeKeyRing } from '../../src/server/index.js';
import { runCli } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const LIBRARY = join(ROOT, 'examples', 'library', 'library.json');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'marquee-export-deletes-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, { cwd: dir });

/** Every file under `folder`, relative, sorted. */
function files(folder: string): string[] {
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(folder.length + 1))
    .sort();
}

/** A real SQLite database, as an operator's copy of their store would be. */
function database(path: string): void {
  const db = new Database(path);
  db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  db.close();
}

describe('marquee export deletes nothing it did not write', () => {
  it('refuses a previous export that gained files at any depth, naming them; --force never deletes a database or key ring', async () => {
    expect((await cli('import', '--db', 'x.db', '--library', LIBRARY)).code).toBe(0);
    const first = await cli('export', '--db', 'x.db', '--out', 'out1');
    expect(first.code).toBe(0);
    const out = join(dir, 'out1');
    const exported = files(out);
    const marker = JSON.parse(readFileSync(join(out, MARKER_FILE), 'utf8'));
    expect(marker.markerVersion).toBe(3);
    expect(marker.written).toEqual(exported.filter((f) => f !== MARKER_FILE));
    expect(first.stdout).toContain(`wrote ${exported.length} files`);

    // What the issue found deleted: a note in a folder of the export, a database, a key ring.
    writeFileSync(join(out, 'catalog', 'notes.txt'), 'my notes');
    database(join(out, 'meta', 'important.db'));
    writeFileSync(join(out, 'stream', 'm.db.keys.json'), serializeKeyRing(generateKeyRing()));
    const again = await cli('export', '--db', 'x.db', '--out', 'out1');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      'holds what no export writes and none ever deletes: meta/important.db (a database), stream/m.db.keys.json (a key ring)',
    );
    const forced = await cli('export', '--db', 'x.db', '--out', 'out1', '--force');
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('meta/important.db (a database), stream/m.db.keys.json (a key ring)');
    expect(files(out)).toEqual([...exported, 'catalog/notes.txt', 'meta/important.db', 'stream/m.db.keys.json'].sort());

    // The note alone: refused without --force, naming it.
    await rm(join(out, 'meta', 'important.db'));
    await rm(join(out, 'stream', 'm.db.keys.json'));
    const noted = await cli('export', '--db', 'x.db', '--out', 'out1');
    expect(noted.code).toBe(2);
    expect(noted.stderr).toContain('holds a file the previous export did not write: catalog/notes.txt; not replaced');
    expect(existsSync(join(out, 'catalog', 'notes.txt'))).toBe(true);

    // A key ring renamed (ring.json), a database without its extension: known by their content.
    writeFileSync(join(out, 'ring.json'), serializeKeyRing(generateKeyRing()));
    database(join(out, 'catalog', 'backup'));
    const renamed = await cli('export', '--db', 'x.db', '--out', 'out1', '--force');
    expect(renamed.code).toBe(2);
    expect(renamed.stderr).toContain('catalog/backup (a database), ring.json (a key ring)');
    expect(existsSync(join(out, 'ring.json'))).toBe(true);
    expect(existsSync(join(out, 'catalog', 'backup'))).toBe(true);

    // Only the note is left: --force replaces the folder with it.
    await rm(join(out, 'ring.json'));
    await rm(join(out, 'catalog', 'backup'));
    expect((await cli('export', '--db', 'x.db', '--out', 'out1', '--force')).code).toBe(0);
    expect(files(out)).toEqual(exported);
    expect(readdirSync(dir).filter((n) => n.startsWith('.out1'))).toEqual([]);
  });

  it('names an empty folder someone added, and many paths with a count', async () => {
    expect(await cli('export', '--demo', '--out', 'out')).toMatchObject({ code: 0 });
    const out = join(dir, 'out');
    mkdirSync(join(out, 'meta', 'mine'));
    for (let i = 0; i < 12; i++) writeFileSync(join(out, 'catalog', `extra-${String(i).padStart(2, '0')}.json`), '{}');
    const result = await cli('export', '--demo', '--out', 'out');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /holds 13 files the previous export did not write: catalog\/extra-00\.json, .*catalog\/extra-09\.json and 3 more; not replaced/,
    );
    await rm(join(out, 'catalog'), { recursive: true });
    const folder = await cli('export', '--demo', '--out', 'out');
    expect(folder.stderr).toContain('did not write: meta/mine/;');
  });

  it('judges an export written before markers listed their files by the shape of an export', async () => {
    expect(await cli('export', '--demo', '--out', 'old')).toMatchObject({ code: 0 });
    const out = join(dir, 'old');
    // What an earlier Marquee wrote: version 2, the root entries only, and no https.html (newer).
    const marker = JSON.parse(readFileSync(join(out, MARKER_FILE), 'utf8'));
    delete marker.written;
    marker.markerVersion = 2;
    marker.entries = marker.entries.filter((entry: string) => entry !== 'https.html');
    writeFileSync(join(out, MARKER_FILE), JSON.stringify(marker));
    await rm(join(out, 'https.html'));
    writeFileSync(join(out, 'catalog', 'notes.txt'), 'mine');
    writeFileSync(join(out, 'deploy.sh'), '#!/bin/sh\n');
    const result = await cli('export', '--demo', '--out', 'old');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('did not write: catalog/notes.txt, deploy.sh;');
    await rm(join(out, 'catalog', 'notes.txt'));
    await rm(join(out, 'deploy.sh'));
    expect((await cli('export', '--demo', '--out', 'old')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, MARKER_FILE), 'utf8')).markerVersion).toBe(3);
  });

  it('never deletes a file that appears while the export runs: it is left aside and reported', async () => {
    const out = join(dir, 'site');
    await exportAddon(createExampleAddon(), out);
    let written = false;
    const addon = createExampleAddon();
    const late = {
      ...addon,
      async handle(request: Parameters<typeof addon.handle>[0]) {
        // After the folder was checked: another program writes into it.
        if (!written) writeFileSync(join(out, 'meta', 'late.txt'), 'written meanwhile');
        written = true;
        return addon.handle(request);
      },
    };
    const report = await exportAddon(late, out);
    const aside = readdirSync(dir).filter((n) => n.startsWith('.site.old-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!, 'meta', 'late.txt'), 'utf8')).toBe('written meanwhile');
    expect(files(join(dir, aside[0]!))).toEqual(['meta/late.txt']);
    expect(report.warnings).toContainEqual({
      path: join(dir, aside[0]!),
      message: expect.stringContaining(`1 file(s) appeared in ${out} while it was exported and were not deleted`),
    });
  });
});
