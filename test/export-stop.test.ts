/**
 * `marquee export` stopped by SIGINT (Ctrl-C) or SIGTERM part-way: it ends within 3 s, exit 1,
 * saying so; its staging folder is removed and the previous export is left as it was. Before,
 * the signal ended the process where it stood and the half-written staging folder stayed beside
 * the export (`.site.export-…`), one more each time.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { ensureBuilt, startMarquee } from './helpers/serve-process.js';

beforeAll(ensureBuilt, 120_000);

const children: ChildProcess[] = [];
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-export-stop-'));
  // Enough films that an export takes seconds: a meta and a stream answer each.
  const films = Array.from({ length: 20_000 }, (_, i) => ({
    id: `tt${String(1_000_000 + i)}`,
    type: 'movie',
    name: `Film ${i}`,
    genres: ['Drama'],
    streams: [{ url: `https://media.example/${i}.mp4`, name: 'HD' }],
  }));
  writeFileSync(join(dir, 'films.json'), JSON.stringify(films));
  writeFileSync(join(dir, 'marquee.yaml'), 'library: { files: [./films.json] }\n');
  expect((await runCli(['import'], { cwd: dir })).code).toBe(0);
}, 120_000);
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const staging = () => readdirSync(dir).filter((name) => name.startsWith('.site.export-'));

describe('an export stopped part-way', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: ended within 3 s, no staging folder left, the previous export as it was`, async () => {
      // The previous export: the demo's, a small one.
      expect((await runCli(['export', '--demo', '--out', 'site'], { cwd: dir })).code).toBe(0);
      const manifest = readFileSync(join(dir, 'site', 'manifest.json'), 'utf8');
      const files = readdirSync(join(dir, 'site'), { recursive: true }).sort();

      const exporting = startMarquee(['export', '--out', 'site'], dir, children);
      // Stopped once it is writing (its staging folder exists), well before it would end.
      const seen = Date.now();
      while (staging().length === 0 && exporting.process.exitCode === null && Date.now() - seen < 20_000)
        await sleep(20);
      expect(staging(), exporting.output()).toHaveLength(1);
      await sleep(300);
      expect(exporting.process.exitCode, 'the export ended before it could be stopped').toBeNull();
      const sent = Date.now();
      exporting.process.kill(signal);
      expect(await exporting.exited).toBe(1);
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(exporting.output()).toContain(
        `marquee export: stopped by ${signal}: nothing was replaced, site is as it was`,
      );
      expect(staging()).toEqual([]);
      expect(readFileSync(join(dir, 'site', 'manifest.json'), 'utf8')).toBe(manifest);
      expect(readdirSync(join(dir, 'site'), { recursive: true }).sort()).toEqual(files);
    }, 60_000);
  }
});
