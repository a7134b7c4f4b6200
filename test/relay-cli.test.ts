/**
 * The relay as `marquee serve` runs it: the banner and the front page say it is on, stream answers
 * give its links (per-playlist maxConnections from the settings file), `marquee status` lists its
 * sessions while serve runs (channel, viewers, the upstream redacted, bytes, since when) and says
 * when serve is not running; `--relay false` turns it off.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayStatusFile } from '../src/relay/index.js';
import { type RunningCli, runCli, startCli } from './helpers/cli.js';
import { type LiveHost, liveTs, startLiveHost } from './helpers/live-host.js';
import { tsStream } from './helpers/ts-stream.js';

const CLIP = tsStream({ frames: 25 * 20 });

let cwd: string;
let upstream: LiveHost;
let cli: RunningCli;
let base: string;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'marquee-relay-cli-'));
  upstream = await startLiveHost();
  upstream.routes.set('/live/me/s3cretpw/1.ts', liveTs(CLIP));
  upstream.routes.set('/live/me/s3cretpw/2.ts', liveTs(CLIP));
  writeFileSync(
    join(cwd, 'tv.m3u'),
    `#EXTM3U\n#EXTINF:-1 tvg-id="news",News\n${upstream.url}/live/me/s3cretpw/1.ts\n#EXTINF:-1 tvg-id="sport",Sport\n${upstream.url}/live/me/s3cretpw/2.ts\n`,
  );
  writeFileSync(
    join(cwd, 'marquee.json'),
    JSON.stringify({
      livetv: { playlists: [{ url: 'tv.m3u', maxConnections: 1 }] },
      sources: { allowPrivate: true },
      relay: { idleSeconds: 30 },
      refresh: { intervalHours: 0 },
    }),
  );
  cli = startCli(['serve', '--port', '0'], { cwd });
  await cli.waitForStdout(/^ {2}relay: .*$/m, 30_000);
  base = /^ {2}manifest: +(\S+)\/manifest\.json$/m.exec(cli.stdout())![1]!;
});

afterAll(async () => {
  cli?.stop();
  await cli?.done;
  await upstream?.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function relayLink(channel: string): Promise<string> {
  const answer = await fetch(`${base}/stream/tv/${encodeURIComponent(channel)}.json`);
  const { streams } = (await answer.json()) as { streams: { url: string }[] };
  return streams[0]!.url;
}

describe('the relay in marquee serve', () => {
  it('says it is on, in the banner and on the front page', async () => {
    expect(cli.stdout()).toMatch(/^ {2}relay: {5}on: streams a browser cannot play as they are/m);
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain('Channels play through this server&#39;s relay');
  });

  it('gives relay links, and the 503 naming the playlist limit to a second channel', async () => {
    const news = await relayLink('mq-tv:news');
    expect(news).toMatch(new RegExp(`^${base}/relay/[^/]+/index\\.m3u8$`));
    expect((await fetch(news)).status).toBe(200);
    const sport = await fetch(await relayLink('mq-tv:sport'));
    expect(sport.status).toBe(503);
    expect(await sport.text()).toMatch(/livetv\.playlists\[0\]\.maxConnections.*in use by News/);
  });

  it('is listed by marquee status while serve runs, the upstream redacted', async () => {
    // Published at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const file = relayStatusFile(join(cwd, 'marquee.db'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { stdout } = await runCli(['status'], { cwd });
    expect(stdout).toMatch(/^relay: 1 channel relayed, 1 viewer \(limits: 16 upstreams, 256 viewers\)$/m);
    expect(stdout).toMatch(
      /^ {7}News: 1 viewer, upstream http:\/\/127\.0\.0\.1:\d+\/…\/1\.ts \(ts h264\+aac\), \S+ \S+ in, \S+ \S+ out, since \d{4}-/m,
    );
    expect(stdout).not.toContain('s3cretpw');
    const json = JSON.parse((await runCli(['status', '--json'], { cwd })).stdout);
    expect(json.relay).toMatchObject({ running: true, sessions: [{ channel: 'News', viewers: 1, kind: 'ts' }] });
    expect(JSON.stringify(json.relay)).not.toContain('s3cretpw');
  });

  it('says when serve is not running', async () => {
    cli.stop();
    await cli.done;
    const { stdout } = await runCli(['status'], { cwd });
    expect(stdout).toContain('relay: serve is not running (no relay sessions)');
    const json = JSON.parse((await runCli(['status', '--json'], { cwd })).stdout);
    expect(json.relay).toEqual({ running: false });
  });

  it('--relay false serves the streams direct', async () => {
    const off = startCli(['serve', '--port', '0', '--relay', 'false'], { cwd });
    try {
      await off.waitForStdout(/^ {2}manifest: +(\S+)$/m, 30_000);
      const at = /^ {2}manifest: +(\S+)\/manifest\.json$/m.exec(off.stdout())![1]!;
      expect(off.stdout()).not.toMatch(/^ {2}relay:/m);
      const { streams } = (await (await fetch(`${at}/stream/tv/mq-tv%3Anews.json`)).json()) as {
        streams: { url: string }[];
      };
      expect(streams[0]!.url).toBe(`${upstream.url}/live/me/s3cretpw/1.ts`);
    } finally {
      off.stop();
      await off.done;
    }
  });
});
