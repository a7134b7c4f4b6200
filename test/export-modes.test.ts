/**
 * `marquee export` under the umask a server might really run with: its folders are 0755 and its
 * files 0644 under `umask 000` (before, they followed the umask: 0777 and 0666, a public site
 * anyone on the machine could rewrite), and a stricter umask (077) is kept, as the user asked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './helpers/serve-process.js';

beforeAll(ensureBuilt, 120_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-export-modes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every folder and file under `root` (itself included), with its mode as four octal digits. */
function modes(root: string): { folders: Set<string>; files: Set<string>; count: number } {
  const folders = new Set<string>();
  const files = new Set<string>();
  let count = 0;
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
  folders.add(mode(root));
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    (entry.isDirectory() ? folders : files).add(mode(path));
    count++;
  }
  return { folders, files, count };
}

function exportUnder(umask: string, name: string): string {
  const out = join(dir, name);
  const run = spawnSync(
    'sh',
    ['-c', `umask ${umask} && exec "$0" "$1" export --demo --out "$2"`, process.execPath, BIN, out],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return out;
}

describe('export file modes', () => {
  it('umask 000: folders 0755, files 0644 (readable by a web server, writable by the owner only)', () => {
    const seen = modes(exportUnder('000', 'open'));
    expect(seen.count).toBeGreaterThan(10);
    expect([...seen.folders]).toEqual(['0755']);
    expect([...seen.files]).toEqual(['0644']);
  }, 60_000);

  it('umask 077: the stricter mask is kept (0700 and 0600)', () => {
    const seen = modes(exportUnder('077', 'strict'));
    expect([...seen.folders]).toEqual(['0700']);
    expect([...seen.files]).toEqual(['0600']);
  }, 60_000);
});
