/**
 * `marquee health`, `marquee status` and `marquee serve` with health checks, as an operator runs
 * them: settings in marquee.yaml, streams on local hosts (sources.allowPrivate, as a home network
 * needs), exit codes, reports that name streams without the accounts in their URLs, and a server
 * whose answers follow each pass.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { answer, liveTs, type StreamHost, startStreamHost } from './helpers/stream-host.js';
import { type Panel, startPanel } from './helpers/xtream-panel.js';

let host: StreamHost;
const dirs: string[] = [];
const panels: Panel[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-health-cli-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  host = await startStreamHost();
  // An account's stream: the username and password are in the path.
  host.routes.set('/live/alice/s3cret-pw/101.ts', answer(404, 'Not Found'));
  host.routes.set('/live/alice/s3cret-pw/102.ts', liveTs());
  host.routes.set('/arte.m3u8', answer(200, '<html>Buy a plan</html>', { 'content-type': 'text/html' }));
});
afterEach(async () => {
  await Promise.all(panels.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await host.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder with a playlist (a dead first stream, a live backup, an HTML page) and marquee.yaml. */
function project(health: string, extra = ''): string {
  const dir = folder();
  writeFileSync(
    join(dir, 'tv.m3u'),
    [
      '#EXTM3U',
      '#EXTINF:-1 tvg-id="news.test",News',
      `${host.url}/live/alice/s3cret-pw/101.ts`,
      '#EXTINF:-1 tvg-id="news.test",News (backup)',
      `${host.url}/live/alice/s3cret-pw/102.ts`,
      '#EXTINF:-1 tvg-id="arte.test",Arte',
      `${host.url}/arte.m3u8`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'marquee.yaml'),
    `db: ./tv.db\nlivetv:\n  playlists: [./tv.m3u]\nsources:\n  allowPrivate: true\nhealth:\n${health}\n${extra}`,
  );
  return dir;
}

describe('marquee health', () => {
  it('runs one pass, prints what it found (exit 0: dead streams are findings), and status shows it', async () => {
    const cwd = project('  timeoutSeconds: 2');
    expect((await runCli(['import'], { cwd })).code).toBe(0);
    const pass = await runCli(['health'], { cwd });
    expect(pass.stderr).toBe('');
    expect(pass.code).toBe(0);
    const lines = pass.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^checked 3 streams of 3 in [\d.]+ s \(3 requests\): 1 ok, 1 dead, 0 blocked, 1 not media, 0 timeout$/,
    );
    expect(pass.stdout).toContain('3 streams changed state');
    expect(pass.stdout).toContain(`News (mq-tv:news.test): unchecked → dead (HTTP 404) ${host.url}/…/101.ts`);
    // The account in the stream's path is never printed.
    expect(pass.stdout + pass.stderr).not.toContain('s3cret-pw');

    const json = await runCli(['health', '--json'], { cwd });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ ok: true, streams: 3, counts: { ok: 1, dead: 1, notMedia: 1 }, changedCount: 0 });

    const status = await runCli(['status'], { cwd });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('health:       1 ok, 1 dead, 0 blocked, 1 not media, 0 timeout, 0 unchecked');
    expect(status.stdout).toMatch(/health: last pass \d{4}-\d\d-\d\d \d\d:\d\d UTC, 0 streams changed state/);
    const statusJson = JSON.parse((await runCli(['status', '--json'], { cwd })).stdout);
    expect(statusJson.sources[0].health).toEqual({ ok: 1, dead: 1, blocked: 0, notMedia: 1, timeout: 0, unchecked: 0 });
    expect(statusJson.health.lastPass).toMatchObject({ streams: 3, counts: { ok: 1, dead: 1 }, changed: 0 });
    expect(statusJson.health.changed).toEqual([]);
  });

  it('lists in status --json the streams that changed state in the last pass', async () => {
    const cwd = project('  timeoutSeconds: 2');
    await runCli(['import'], { cwd });
    await runCli(['health'], { cwd });
    host.routes.set('/arte.m3u8', answer(200, '#EXTM3U\n#EXTINF:6,\nseg1.ts\n'));
    try {
      expect((await runCli(['health'], { cwd })).code).toBe(0);
    } finally {
      host.routes.set('/arte.m3u8', answer(200, '<html>Buy a plan</html>', { 'content-type': 'text/html' }));
    }
    const status = JSON.parse((await runCli(['status', '--json'], { cwd })).stdout);
    expect(status.health.changed).toEqual([
      {
        channel: 'mq-tv:arte.test',
        channelName: 'Arte',
        stream: 'Arte',
        url: `${host.url}/arte.m3u8`,
        source: join(cwd, 'tv.m3u'),
        line: 6,
        from: 'not-media',
        to: 'ok',
        detail: 'HLS playlist with 1 segment',
        at: expect.stringMatching(/^\d{4}-/),
      },
    ]);
  });

  it('exits 1 when the pass cannot run, 2 for health.sources naming no source, 3 without a database', async () => {
    const cwd = project('  sources: [./other.m3u]');
    expect((await runCli(['health'], { cwd })).code).toBe(3);
    expect((await runCli(['import'], { cwd })).code).toBe(0);
    const wrong = await runCli(['health'], { cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('health.sources: ');
    expect(wrong.stderr).toContain('other.m3u is none of the playlists or Xtream accounts configured or imported');

    const panel = await startPanel({ live: 4, formats: ['ts'] });
    panels.push(panel);
    const only = folder();
    writeFileSync(
      join(only, 'marquee.yaml'),
      `db: ./tv.db\nxtream: ['${panel.account}']\nsources: { allowPrivate: true }\n`,
    );
    expect((await runCli(['import'], { cwd: only })).code).toBe(0);
    const asked = panel.asked.length;
    const none = await runCli(['health'], { cwd: only });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /no stream to check: 4 streams, none from the sources checked \(Xtream accounts are checked only when listed in health.sources\)/,
    );
    expect(panel.asked.length).toBe(asked);
    // Named, the account is checked (its panel answers 404 for these streams).
    writeFileSync(
      join(only, 'marquee.yaml'),
      `db: ./tv.db\nxtream: ['${panel.account}']\nsources: { allowPrivate: true }\nhealth: { sources: ['${panel.account}'] }\n`,
    );
    const named = await runCli(['health', '--json'], { cwd: only });
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ streams: 4, counts: { dead: 4 } });
    expect(named.stdout).not.toContain(panel.state.password);
  });

  it('refuses health settings out of range with their path', async () => {
    const cwd = project('  perHost: 0\n  hideDeadChannels: yes-please');
    const result = await runCli(['health'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('$.health.perHost');
    expect(result.stderr).toContain('$.health.hideDeadChannels');
  });
});

describe('marquee serve with health.enabled', () => {
  it('checks after the first import, logs the pass and serves the live backup first', async () => {
    // The direct URLs, as the relay would otherwise carry these MPEG-TS streams (relay.enabled: auto).
    const cwd = project('  enabled: true\n  timeoutSeconds: 2', 'log: { format: json }\nrelay: { enabled: false }\n');
    const cli = startCli(['serve', '--port', '0', '--refresh-hours', '0'], { cwd, env: { MARQUEE_RELAUNCH: 'off' } });
    try {
      const [, base] = await cli.waitForStdout(/manifest: +(http:\/\/\S+)\/manifest\.json/, 60_000);
      const streams = async () =>
        (await httpRequest(base!, `/stream/tv/${encodeURIComponent('mq-tv:news.test')}.json`)).json().streams as {
          url: string;
        }[];
      // Before the pass, twice: the response cache keeps the answer from its second request.
      expect((await streams()).map((s) => s.url)).toEqual([
        `${host.url}/live/alice/s3cret-pw/101.ts`,
        `${host.url}/live/alice/s3cret-pw/102.ts`,
      ]);
      await streams();
      const [line] = await cli.waitForStdout(/"msg":"health pass: checked 3 streams of 3[^"]*"/, 30_000);
      expect(line).toContain('1 ok, 1 dead');
      await expect
        .poll(async () => (await streams()).map((s) => s.url), { timeout: 2000 })
        .toEqual([`${host.url}/live/alice/s3cret-pw/102.ts`, `${host.url}/live/alice/s3cret-pw/101.ts`]);
      expect(cli.stdout()).not.toContain('s3cret-pw');
    } finally {
      cli.stop();
    }
    expect((await cli.done).code).toBe(0);
  }, 60_000);
});
