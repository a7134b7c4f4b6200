/**
 * The table of bad sources (issue 17) through `serve`'s refresh, in a real `marquee serve`
 * process refreshing every 3.6 s: every row's source goes bad at once; each is logged at `warn`
 * with the same line `marquee import` prints, the answers stay byte for byte, and `marquee
 * status` names each source. Then the second playlist turns from `#EXTM3U` alone into an HTML
 * page: logged again, still served.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { awayFromHourTurn } from '../helpers/clock.js';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';
import { answers, clientPaths, ROWS, Sources } from './bad-sources.js';

let dir: string;
let sources: Sources;
const children: ChildProcess[] = [];
beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-last-good-serve-'));
  sources = new Sources(dir);
  await sources.start();
  sources.writeGood();
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await sources.stop();
  rmSync(dir, { recursive: true, force: true });
});

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe("serve's refresh keeps every bad source's last good data", () => {
  it('logs each at warn, serves the same answers, and status names each', async () => {
    // The answers are compared over up to 90 s: all of them within one hour's programme window.
    await awayFromHourTurn(90_000);
    const db = join(dir, 'marquee.db');
    const config = sources.writeConfig({ refresh: { intervalHours: 0.001 }, log: { format: 'json', requests: false } });
    const child = startMarquee(['serve', '--config', config, '--db', db, '--port', '0'], dir, children);
    const base = (await child.waitFor(/manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/, 30_000))[1]!;
    const paths = await clientPaths(base);
    const before = await answers(base, paths);
    expect(paths.length).toBeGreaterThan(20);

    const firstPhase = ROWS.filter((r) => r !== 'second playlist HTML page');
    const bad = firstPhase.map((row) => sources.break(row));
    for (const b of bad) {
      await child.waitFor(
        new RegExp(
          `"level":"warn","msg":"refresh: ${reEscape(b.kind)} ${reEscape(b.location)} [^"]*keeping the last good data`,
        ),
        30_000,
      );
    }
    expect(await answers(base, paths)).toEqual(before);
    const status = await runCli(['status', '--db', db], { cwd: dir });
    expect(status.code).toBe(1);
    for (const b of bad) expect(status.stdout).toContain(`KEPT ${b.kind} ${b.location}\n`);

    const html = sources.break('second playlist HTML page');
    await child.waitFor(
      new RegExp(
        `"level":"(warn|error)","msg":"refresh: playlist ${reEscape(html.location)} is an HTML page, not a playlist`,
      ),
      30_000,
    );
    expect(await answers(base, paths)).toEqual(before);
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 180_000);
});
