/**
 * `marquee import --xtream` and `marquee serve` with Xtream accounts, as an operator runs them:
 * a panel of 300 live channels, 2,000 movies and 200 series imported and served (guide, movie and
 * series catalogs); a wrong password, an expired account and an HTML answer each exit 1 with a
 * clear line naming the host and keep what was served; MARQUEE_XTREAM, the settings file's
 * `xtream` entries and a bad account URL (exit 2, without its secrets).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { type Panel, startPanel } from './helpers/xtream-panel.js';

let dir: string;
const panels: Panel[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-xtream-cli-'));
});
afterAll(async () => {
  for (const p of panels) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

function workdir(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

interface Programme {
  startTime: string;
  endTime: string;
  streams?: { name: string; description: string; url: string }[];
}
interface GuideRow {
  id: string;
  name: string;
  videos: Programme[];
}

async function panel(options: Parameters<typeof startPanel>[0] = {}): Promise<Panel> {
  const p = await startPanel(options);
  panels.push(p);
  return p;
}

/** Every catalog answer of a served add-on, paged to its end. */
async function catalogs(base: string): Promise<Record<string, string[]>> {
  const manifest = (await httpRequest(base, '/manifest.json')).json();
  const out: Record<string, string[]> = {};
  for (const c of manifest.catalogs as { type: string; id: string }[]) {
    const ids: string[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = (await httpRequest(base, `/catalog/${c.type}/${c.id}${skip ? `/skip=${skip}` : ''}.json`)).json();
      ids.push(...page.metas.map((m: { id: string }) => m.id));
      if (page.metas.length < 100) break;
    }
    out[c.type] = ids;
  }
  return out;
}

async function served<T>(cwd: string, db: string, read: (base: string) => Promise<T>): Promise<T> {
  const cli = startCli(['serve', '--db', db, '--port', '0', '--quiet', '--refresh-hours', '0'], { cwd });
  try {
    const [, base] = await cli.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/, 60_000);
    return await read(base!);
  } finally {
    cli.stop();
    await cli.done;
  }
}

describe('marquee import --xtream', () => {
  it('imports a panel of 300 channels, 2,000 movies and 200 series; serve serves the guide, both catalogs and catch-up', async () => {
    // Every fifth channel keeps a 7-day archive; xmltv.php gives 11 days back.
    const p = await panel({
      live: 300,
      movies: 2_000,
      series: 200,
      archiveDays: 7,
      guideHoursBack: 264,
      guideHours: 290,
    });
    const cwd = workdir('big');
    const result = await runCli(['import', '--db', 'tv.db', '--xtream', p.account], { cwd });
    expect(result.stderr).not.toMatch(/s3cret-pw/);
    expect(result.stdout).not.toMatch(/s3cret-pw/);
    expect(result.code).toBe(0);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const HOUR = 3_600_000;
    const counts = await served(cwd, 'tv.db', async (base) => {
      const all = await catalogs(base);
      const manifest = (await httpRequest(base, '/manifest.json')).json();
      const tv = manifest.catalogs.find((c: { type: string }) => c.type === 'tv');
      const guide = async (ms: number) =>
        (await httpRequest(base, `/catalog/tv/${tv.id}/date=${day(ms)}.json`)).json().metasDetailed as GuideRow[];
      const today = await guide(Date.now());
      const five = today.find((m) => m.name === 'Channel 5')!;
      const one = today.find((m) => m.name === 'Channel 1')!;
      const meta = (await httpRequest(base, `/meta/tv/${encodeURIComponent(five.id)}.json`)).json().meta;
      return {
        tv: all.tv!.length,
        movie: all.movie!.length,
        series: all.series!.length,
        guide: today.filter((m) => m.videos.length > 0).length,
        five: meta.videos as Programme[],
        oneToday: one.videos,
        sixDaysAgo: (await guide(Date.now() - 6 * 24 * HOUR)).find((m) => m.name === 'Channel 5')!.videos,
        tenDaysAgo: (await guide(Date.now() - 10 * 24 * HOUR)).find((m) => m.name === 'Channel 5')!.videos,
        oneSixDaysAgo: (await guide(Date.now() - 6 * 24 * HOUR)).find((m) => m.name === 'Channel 1')!.videos,
      };
    });
    // Today's first guide page: 100 channels, every tenth without an epg_channel_id (no programmes).
    expect({ tv: counts.tv, movie: counts.movie, series: counts.series, guide: counts.guide }).toEqual({
      tv: 300,
      movie: 2_000,
      series: 200,
      guide: 90,
    });

    // The programme that aired 2 hours ago plays from its start: its start on the panel's clock
    // (Europe/Berlin), its length in minutes.
    const now = Date.now();
    const twoHoursAgo = Math.floor(now / HOUR) * HOUR - 2 * HOUR;
    const aired = counts.five.find((v) => Date.parse(v.startTime) === twoHoursAgo)!;
    const berlin = new Date(twoHoursAgo).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }); // 2026-11-25 07:00:00
    const wall = `${berlin.slice(0, 10)}:${berlin.slice(11, 13)}-${berlin.slice(14, 16)}`;
    expect(aired.streams).toEqual([
      {
        name: 'Marquee',
        description: 'From the start (catch-up)',
        url: `${p.url}/timeshift/alice/s3cret-pw/60/${wall}/1005.ts`,
      },
    ]);
    // The one on air has one too; those to come have none.
    const onAir = counts.five.find((v) => Date.parse(v.startTime) <= now && now < Date.parse(v.endTime))!;
    expect(onAir.streams?.length).toBe(1);
    expect(counts.five.filter((v) => Date.parse(v.startTime) > now).every((v) => v.streams === undefined)).toBe(true);
    // A channel without an archive: none, and its programmes end at the retention (2 days).
    expect(counts.oneToday.every((v) => v.streams === undefined)).toBe(true);
    expect(counts.oneSixDaysAgo).toEqual([]);
    // Six days back, within the archive: kept beyond the retention, each with its stream.
    expect(counts.sixDaysAgo.length).toBe(24);
    expect(counts.sixDaysAgo.every((v) => v.streams?.[0]?.url.includes('/timeshift/alice/s3cret-pw/60/'))).toBe(true);
    // Ten days back, beyond it: nothing to play.
    expect(counts.tenDaysAgo.filter((v) => v.streams !== undefined)).toEqual([]);
  }, 120_000);

  const failures: [string, (p: Panel) => void, RegExp][] = [
    [
      'a wrong password',
      (p) => {
        p.state.password = 'new-pw';
      },
      /refused the username or password/,
    ],
    [
      'an expired account',
      (p) => {
        p.state.expDate = 1_600_000_000;
      },
      /the account expired on 2020-09-13/,
    ],
    ['an HTML answer', (p) => p.state.html.add('account'), /answered an HTML page, not JSON/],
  ];
  for (const [name, breakIt, why] of failures) {
    it(`${name}: exit 1, one clear line per part naming the host, and what was served stays`, async () => {
      const p = await panel({ live: 5, movies: 3, series: 2 });
      const cwd = workdir(name.replaceAll(' ', '-'));
      const argv = ['import', '--db', 'tv.db', '--xtream', p.account];
      expect((await runCli(argv, { cwd })).code).toBe(0);
      const before = await served(cwd, 'tv.db', catalogs);
      breakIt(p);
      const result = await runCli(argv, { cwd });
      expect(result.code).toBe(1);
      const host = `127.0.0.1:${new URL(p.url).port}`;
      const lines = result.stdout.split('\n').filter((l) => l.includes(`xtream al…@${host}`));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) expect(line).toMatch(why);
      expect(result.stdout + result.stderr).not.toMatch(/s3cret-pw|alice|new-pw/);
      expect(await served(cwd, 'tv.db', catalogs)).toEqual(before);
      const status = await runCli(['status', '--db', 'tv.db'], { cwd });
      expect(status.code).toBe(1);
      expect(status.stdout).not.toMatch(/s3cret-pw|alice/);
    }, 60_000);
  }

  it('reads MARQUEE_XTREAM (comma-separated) and the settings file entries', async () => {
    const a = await panel({ live: 3, movies: 1, series: 1, channelPrefix: 'Alpha' });
    const b = await panel({
      live: 3,
      movies: 1,
      series: 1,
      channelPrefix: 'Beta',
      username: 'bob',
      password: 'pw-bob',
    });
    const cwd = workdir('env');
    const env = { MARQUEE_XTREAM: `${a.account}, ${b.url}/player_api.php?username=bob&password=pw-bob` };
    expect((await runCli(['import', '--db', 'env.db'], { cwd, env })).code).toBe(0);
    const viaEnv = await served(cwd, 'env.db', catalogs);
    expect(viaEnv.movie).toHaveLength(2);

    writeFileSync(
      join(cwd, 'marquee.yaml'),
      [
        'xtream:',
        `  - url: ${b.url}/get.php?type=m3u_plus`,
        '    username: bob',
        '    password: pw-bob',
        '    movies: false',
        '    excludeCategories: [Kids]',
        '',
      ].join('\n'),
    );
    expect((await runCli(['import', '--db', 'file.db'], { cwd })).code).toBe(0);
    const viaFile = await served(cwd, 'file.db', catalogs);
    expect(viaFile.movie).toBeUndefined();
    expect(viaFile.series).toHaveLength(1);
    // Channel 2 is in Kids (the fake panel's categories go round by number).
    expect(viaFile.tv).toHaveLength(2);
  }, 60_000);

  it('a bad account URL is a settings error (exit 2) that does not repeat its secrets', async () => {
    const cwd = workdir('bad-url');
    const noPassword = await runCli(['import', '--xtream', 'http://tv.example:8080/get.php?username=carol'], { cwd });
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toMatch(/the account at tv\.example:8080 needs a username and a password/);
    expect(noPassword.stderr).not.toContain('carol');
    const ftp = await runCli(['import', '--xtream', 'ftp://carol:hunter2@tv.example/'], { cwd });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/must be http\(s\), not ftp/);
    expect(ftp.stderr).not.toMatch(/carol|hunter2/);
  });
});
