/**
 * `marquee serve`'s first import (an empty database, or the demo) runs in a worker thread, as its
 * refreshes do: a serving thread that had run an import (Node's file, gunzip and HTTP client
 * streams, its garbage) answered cached pages 10-30% slower afterwards (bench/README.md, "Compression in
 * a thread of its own"). A probe loaded into every thread of the process reports the files the
 * serving thread opens as streams; `marquee import`, which imports in its own thread, shows the
 * probe sees them.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from './helpers/http.js';
import { BIN, ensureBuilt, startMarquee } from './helpers/serve-process.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'livetv');
const PLAYLIST = join(fixtures, 'channels.m3u');
const GUIDE = join(fixtures, 'guide.xml');

/** In the main thread only: every file opened as a read stream is written to stderr. */
const PROBE = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
  const original = fs.createReadStream;
  fs.createReadStream = function (path, ...rest) {
    process.stderr.write('serving thread read ' + String(path) + '\\n');
    return original.call(this, path, ...rest);
  };
  syncBuiltinESMExports();
}
`;

let dir: string;
let probe: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-first-import-'));
  probe = join(dir, 'probe.mjs');
  writeFileSync(probe, PROBE);
}, 120_000);
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('marquee serve on an empty database', () => {
  it('imports its sources outside the serving thread, and serves them', async () => {
    const child = startMarquee(
      [
        'serve',
        '--db',
        join(dir, 'serve.db'),
        '--playlist',
        PLAYLIST,
        '--epg',
        GUIDE,
        '--port',
        '0',
        '--refresh-hours',
        '0',
      ],
      dir,
      children,
      { NODE_OPTIONS: `--import=${probe}` },
    );
    const port = Number((await child.waitFor(/manifest:\s+http:\/\/127\.0\.0\.1:(\d+)\/manifest\.json/))[1]);
    const manifest = (await httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).json() as {
      catalogs: { type: string; id: string }[];
    };
    const tv = manifest.catalogs.find((c) => c.type === 'tv')!;
    const page = (await httpRequest(`http://127.0.0.1:${port}`, `/catalog/tv/${tv.id}.json`)).json() as {
      metas: unknown[];
    };
    expect(page.metas.length).toBeGreaterThan(0);
    expect(child.output()).toMatch(/live TV: \d+ channels/);
    expect(child.output()).not.toContain('serving thread read');
  }, 60_000);

  it('(the probe sees an import in its own thread: marquee import)', async () => {
    const stderr = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'import', '--db', join(dir, 'import.db'), '--playlist', PLAYLIST, '--epg', GUIDE],
        { cwd: dir, env: { ...process.env, MARQUEE_RELAUNCH: 'off', NODE_OPTIONS: `--import=${probe}` } },
        (_error, _stdout, err) => resolve(err),
      );
    });
    expect(stderr).toContain(`serving thread read ${PLAYLIST}`);
  }, 60_000);
});
