/**
 * A source that goes bad never takes served data with it (issue 17, docs/reliability.md): each
 * row of the table of bad sources, run through `marquee import`, keeps what was served byte for
 * byte, exits 1 with one line naming the source, and `marquee status` names it. Three guides of
 * which one goes bad: the other two update. The shrink guard: 60% is taken, 30% is kept unless
 * `--accept-shrink`. (`serve`'s refresh: last-good-serve.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { awayFromHourTurn } from '../helpers/clock.js';
import { httpRequest } from '../helpers/http.js';
import {
  answers,
  clientPaths,
  GUIDE_CHANNELS,
  guideText,
  playlistText,
  ROWS,
  type Row,
  Sources,
  servedFrom,
} from './bad-sources.js';

let dir: string;
let sources: Sources;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-last-good-'));
  sources = new Sources(dir);
  await sources.start();
  sources.writeGood();
});
afterEach(async () => {
  await sources.stop();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => join(dir, 'marquee.db');
const importArgs = (...extra: string[]) => ['import', '--config', sources.writeConfig(), '--db', db(), ...extra];
const snapshot = () => servedFrom(db(), async (base) => answers(base, await clientPaths(base)));

/** Why each row's source is kept, as docs/reliability.md lists it. */
const REASONS: Record<Row, RegExp> = {
  'guide <tv></tv>': /holds no programme with a valid start and stop/,
  'guide ids renamed': /gives nothing: none of its \d+ channels matches a playlist channel; keeping the last good data/,
  'guide invalid dates': /holds no programme with a valid start and stop/,
  'guide gzip of the header only': /failed: line \d+: no <tv> element: not an XMLTV guide/,
  'playlist HTML page with one URL': /is an HTML page, not a playlist/,
  'second playlist #EXTM3U alone': /holds no #EXTINF entry: not an IPTV playlist/,
  'second playlist HTML page': /is an HTML page, not a playlist/,
  'library file HTML page': /failed: line 1: is an HTML page, not a library file/,
};

describe('each bad source of the table keeps what it served, through `marquee import`', () => {
  it.each(ROWS)(
    '%s',
    async (row) => {
      // Its snapshots are compared over some seconds: all within one hour's programme window.
      await awayFromHourTurn(30_000);
      const first = await runCli(importArgs(), { cwd: dir });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const before = await snapshot();
      expect(before.length).toBeGreaterThan(20);

      const bad = sources.break(row);
      const { code, stdout } = await runCli(importArgs(), { cwd: dir });
      expect(code, stdout).toBe(1);
      const kept = stdout.split('\n').filter((l) => l.startsWith('  kept: '));
      expect(kept, stdout).toHaveLength(1);
      expect(kept[0]).toContain(`kept: ${bad.kind} ${bad.location} `);
      expect(kept[0]).toMatch(REASONS[row]);
      expect(kept[0]).toMatch(/; keeping the last good data from \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

      expect(await snapshot()).toEqual(before);

      const status = await runCli(['status', '--db', db()], { cwd: dir });
      expect(status.code).toBe(1);
      expect(status.stdout).toContain(`KEPT ${bad.kind} ${bad.location}\n`);
      expect(status.stdout.match(/^KEPT /gm)).toHaveLength(1);
      const json = JSON.parse((await runCli(['status', '--db', db(), '--json'], { cwd: dir })).stdout);
      const entry = json.sources.find((s: { source: string }) => s.source === bad.location);
      expect(entry).toMatchObject({ kind: bad.kind, ok: false, lastAttempt: { outcome: 'kept' } });
      expect(entry.serving).toMatch(/^its last good data from /);

      // Good again: imported, exit 0, status 0.
      sources.writeGood();
      expect((await runCli(importArgs(), { cwd: dir })).code).toBe(0);
      expect((await runCli(['status', '--db', db()], { cwd: dir })).code).toBe(0);
      expect(await snapshot()).toEqual(before);
    },
    90_000,
  );

  it('a source that never imported well contributes nothing, and says so', async () => {
    sources.break('second playlist HTML page');
    const { code, stdout } = await runCli(importArgs(), { cwd: dir });
    expect(code).toBe(1);
    // "Kept" only where last good data is kept: this one has none.
    expect(stdout).toMatch(
      /^ {2}failed, never imported: playlist http:\/\/127\.0\.0\.1:\d+\/b\.m3u: is an HTML page, not a playlist$/m,
    );
    expect(stdout).not.toMatch(/kept: playlist .*b\.m3u/);
    const status = await runCli(['status', '--db', db()], { cwd: dir });
    expect(status.stdout).toMatch(/^NONE playlist .*b\.m3u$/m);
    expect(status.stdout).toMatch(/serving: +nothing \(it never imported well\)/);
    // Beside "last good: never", the time it has been failing, not "kept since".
    expect(status.stdout).toMatch(/last good: +never\n +failing since: \d{4}-\d\d-\d\d \d\d:\d\d UTC\n/);
    expect(status.stdout).not.toMatch(/last good: +never\n +kept since/);
  });
});

/** The titles of the programmes of channel `tvgId` in today's guide, as the client reads them. */
async function titles(base: string, tvgId: string): Promise<string[]> {
  const list = (await httpRequest(base, '/catalog/tv/mq-tv-channels.json')).json() as {
    metas: { id: string; name: string }[];
  };
  const channel = list.metas.find((m) => m.name === `Channel ${tvgId.toUpperCase()}`);
  expect(channel, tvgId).toBeDefined();
  const meta = (await httpRequest(base, `/meta/tv/${encodeURIComponent(channel!.id)}.json`)).json() as {
    meta: { videos?: { title: string }[] };
  };
  return (meta.meta.videos ?? []).map((v) => v.title);
}

describe('three guides, one goes bad', () => {
  it('updates the other two and keeps serving the bad one’s programmes', async () => {
    const config = () =>
      sources.writeConfig({ livetv: { playlists: sources.playlists, guides: sources.guides.slice(0, 3) } });
    expect((await runCli(['import', '--config', config(), '--db', db()], { cwd: dir })).code).toBe(0);
    const before = await servedFrom(db(), async (base) => ({
      a1: await titles(base, 'a1'),
      a3: await titles(base, 'a3'),
    }));
    expect(before.a1.some((t) => t.startsWith('Show a1 '))).toBe(true);

    sources.writeGuide(0, guideText(GUIDE_CHANNELS[0], { title: 'New' }));
    sources.writeGuide(1, '<tv></tv>\n');
    sources.writeGuide(2, guideText(GUIDE_CHANNELS[2], { title: 'New' }));
    const { code, stdout } = await runCli(['import', '--config', config(), '--db', db()], { cwd: dir });
    expect(code).toBe(1);
    expect(stdout).toMatch(/kept: guide .*g2\.xml holds no programme with a valid start and stop/);
    await servedFrom(db(), async (base) => {
      expect((await titles(base, 'a1')).every((t) => t.startsWith('New a1 '))).toBe(true);
      expect((await titles(base, 'b1')).every((t) => t.startsWith('New b1 '))).toBe(true);
      expect(await titles(base, 'a3')).toEqual(before.a3);
    });
  });
});

describe('the shrink guard', () => {
  const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
  let config: string;
  beforeEach(() => {
    sources.served.set('/a.m3u', playlistText(ids));
    sources.writeGuide(0, guideText(ids));
    config = sources.writeConfig({ livetv: { playlists: [sources.playlists[0]], guides: [sources.guides[0]] } });
  });
  const run = (...extra: string[]) => runCli(['import', '--config', config, '--db', db(), ...extra], { cwd: dir });
  const count = () =>
    servedFrom(db(), async (base) => (await titles(base, 's0')).length + (await titles(base, 's9')).length);

  it('takes a guide that shrinks to 60% of its last good', async () => {
    expect((await run()).code).toBe(0);
    sources.writeGuide(0, guideText(ids.slice(0, 6)));
    const result = await run();
    expect(result.code, result.stdout).toBe(0);
    expect(await servedFrom(db(), async (base) => (await titles(base, 's9')).length)).toBe(0);
  });

  it('keeps a guide that shrinks to 30%, naming the numbers, unless --accept-shrink', async () => {
    expect((await run()).code).toBe(0);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    sources.writeGuide(0, guideText(ids.slice(0, 3)));
    const kept = await run();
    expect(kept.code).toBe(1);
    expect(kept.stdout).toMatch(
      /kept: guide .*g1\.xml yields \d[\d,]* programmes for our channels \(last good: \d[\d,]* on \d{4}-\d\d-\d\d \d\d:\d\d UTC\); keeping the last good data .*; run with --accept-shrink to take it/,
    );
    expect(await count()).toBe(before);

    // Accepting another source changes nothing; accepting this one takes it.
    expect((await run('--accept-shrink', sources.guides[1]!)).code).toBe(1);
    const accepted = await run('--accept-shrink', sources.guides[0]!);
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(await servedFrom(db(), async (base) => (await titles(base, 's9')).length)).toBe(0);
  });

  it('keeps a playlist that shrinks from 10 channels to 1; a bare --accept-shrink takes every source', async () => {
    expect((await run()).code).toBe(0);
    sources.served.set('/a.m3u', playlistText(['s0']));
    const kept = await run();
    expect(kept.code).toBe(1);
    expect(kept.stdout).toMatch(/kept: playlist .*a\.m3u yields 1 channel \(last good: 10 on /);
    const accepted = await run('--accept-shrink', '--db', db());
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(accepted.stdout).toMatch(/^live TV: 1 channel \(1 stream, 1 group\)/m);
  });

  it('is off with sources.minYieldRatio 0, but a fall to nothing is still kept', async () => {
    config = sources.writeConfig({
      livetv: { playlists: [sources.playlists[0]], guides: [sources.guides[0]] },
      sources: { minYieldRatio: 0 },
    });
    expect((await run()).code).toBe(0);
    sources.writeGuide(0, guideText(ids.slice(0, 1)));
    expect((await run()).code).toBe(0);
    sources.writeGuide(0, guideText(ids, { idSuffix: 'renamed' }));
    const kept = await run();
    expect(kept.code).toBe(1);
    // A guide that matches none of the playlist's channels gives nothing, whatever the ratio.
    expect(kept.stdout).toMatch(/gives nothing: none of its \d+ channels matches a playlist channel/);
  });
});
