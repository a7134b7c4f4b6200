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
  it('imports a panel of 300 channels, 2,000 movies and 200 series; serve serves the guide and both catalogs', async () => {
    const p = await panel({ live: 300, movies: 2_000, series: 200 });
    const cwd = workdir('big');
    const result = await runCli(['import', '--db', 'tv.db', '--xtream', p.account], { cwd });
    expect(result.stderr).not.toMatch(/s3cret-pw/);
    expect(result.stdout).not.toMatch(/s3cret-pw/);
    expect(result.code).toBe(0);
    const counts = await served(cwd, 'tv.db', async (base) => {
      const all = await catalogs(base);
      const manifest = (await httpRequest(base, '/manifest.json')).json();
      const tv = manifest.catalogs.find((c: { type: string }) => c.type === 'tv');
      const today = new Date().toISOString().slice(0, 10);
      const day = (await httpRequest(base, `/catalog/tv/${tv.id}/date=${today}.json`)).json();
      return {
        tv: all.tv!.length,
        movie: all.movie!.length,
        series: all.series!.length,
        guide: day.metasDetailed.filter((m: { videos: unknown[] }) => m.videos.length > 0).length,
      };
    });
    // Today's first guide page: 100 channels, every tenth without an epg_channel_id (no programmes).
    expect(counts).toEqual({ tv: 300, movie: 2_000, series: 200, guide: 90 });
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
