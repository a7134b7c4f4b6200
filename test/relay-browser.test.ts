/**
 * Chromium with hls.js, as Stremio Web plays, on a page of another https origin, playing channels
 * from `marquee serve` over https: a live MPEG-TS from a plain-http host, a live HLS channel whose
 * segments are on a second http host, a channel whose host refuses requests without its User-Agent
 * and Referer, and a channel whose first stream dies while it plays. The upstream hosts listen on
 * this machine's non-loopback address: Chromium treats loopback as secure, so only there does a
 * page served over https refuse plain-http media, as a TV or a phone's browser does with a
 * provider's. Playback is real: the video's clock must advance with no fatal error.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readRelayStatus, relayStatusFile } from '../src/relay/index.js';
import { launchBrowser, type TestBrowser } from './helpers/browser.js';
import { type RunningCli, startCli } from './helpers/cli.js';
import { type LiveHost, lanAddress, liveHls, liveTs, needsHeaders, startLiveHost } from './helpers/live-host.js';
import { type Clips, makeClips } from './helpers/media-clips.js';
import { issueCertificate, makeTestCa } from './helpers/tls.js';
import { describeWith, inCi } from './helpers/tools.js';

const HLS_JS = join(import.meta.dirname, '..', 'node_modules', 'hls.js', 'dist', 'hls.min.js');
const LAN = lanAddress();

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>player</title></head>
<body><video id="v" muted playsinline width="320" height="180"></video>
<script src="/hls.js"></script>
<script>
window.state = { time: 0, fatal: [], url: undefined };
window.play = async (streams) => {
  const answer = await (await fetch(streams)).json();
  const url = answer.streams[0].url;
  window.state.url = url;
  window.start(url);
};
window.start = (url) => {
  const video = document.getElementById('v');
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) window.state.fatal.push(data.type + ': ' + data.details);
  });
  video.addEventListener('timeupdate', () => { window.state.time = video.currentTime; });
  hls.loadSource(url);
  hls.attachMedia(video);
  video.play().catch((e) => window.state.fatal.push('play: ' + e.message));
};
</script></body></html>`;

interface PlayState {
  time: number;
  fatal: string[];
  url?: string;
}

// Without a non-loopback address nothing here can show mixed content: skipped, by name (never under CI).
const where = LAN === undefined && !inCi() ? 'skipped: this machine has no non-loopback IPv4 address' : undefined;

describeWith(
  ['chromium', 'ffmpeg', 'openssl'],
  `relay playback in Chromium with hls.js${where ? ` (${where})` : ''}`,
  () => {
    let dir: string;
    let clips: Clips;
    const hosts: LiveHost[] = [];
    let tsHost: LiveHost;
    let hlsHost: LiveHost;
    let cdnHost: LiveHost;
    let secureHost: LiveHost;
    let firstHost: LiveHost;
    let backupHost: LiveHost;
    let cli: RunningCli;
    let marquee: string;
    let pageServer: Server;
    let pageOrigin: string;
    let browser: TestBrowser;

    beforeAll(async () => {
      if (where) return;
      dir = mkdtempSync(join(tmpdir(), 'marquee-relay-browser-'));
      clips = makeClips(dir, { seconds: 24 });
      const lan = LAN ?? '127.0.0.1';
      const start = async () => {
        const h = await startLiveHost(lan);
        hosts.push(h);
        return h;
      };
      [tsHost, hlsHost, cdnHost, secureHost, firstHost, backupHost] = await Promise.all([
        start(),
        start(),
        start(),
        start(),
        start(),
        start(),
      ]);
      tsHost.routes.set('/live/viewer/pa55word/101.ts', liveTs(clips.ts));
      for (const s of clips.segments) {
        cdnHost.routes.set(`/cdn/${s.name}`, (_req, res) =>
          res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': String(s.bytes.length) }).end(s.bytes),
        );
      }
      hlsHost.routes.set('/hls/index.m3u8', liveHls(clips.segments, { segmentBase: `${cdnHost.url}/cdn/`, window: 5 }));
      secureHost.routes.set('/secure.ts', liveTs(clips.ts, needsHeaders('SecretPlayer/2.0', 'https://tv.example/')));
      firstHost.routes.set('/first.ts', liveTs(clips.ts));
      backupHost.routes.set('/backup.ts', liveTs(clips.ts));
      writeFileSync(
        join(dir, 'tv.m3u'),
        [
          '#EXTM3U',
          '#EXTINF:-1 tvg-id="news",News',
          `${tsHost.url}/live/viewer/pa55word/101.ts`,
          '#EXTINF:-1 tvg-id="arte",Arte',
          `${hlsHost.url}/hls/index.m3u8`,
          '#EXTINF:-1 tvg-id="secure",Secure',
          '#EXTVLCOPT:http-user-agent=SecretPlayer/2.0',
          '#EXTVLCOPT:http-referrer=https://tv.example/',
          `${secureHost.url}/secure.ts`,
          '#EXTINF:-1 tvg-id="backup",Backup',
          `${firstHost.url}/first.ts`,
          '#EXTINF:-1 tvg-id="backup",Backup',
          `${backupHost.url}/backup.ts`,
          '',
        ].join('\n'),
      );
      const ca = makeTestCa(dir);
      const served = issueCertificate(ca, dir, 'marquee', { serial: 0x2001, names: ['localhost', '127.0.0.1'] });
      const page = issueCertificate(ca, dir, 'page', { serial: 0x2002, names: ['localhost'] });
      writeFileSync(
        join(dir, 'marquee.json'),
        JSON.stringify({
          livetv: { playlists: ['tv.m3u'] },
          sources: { allowPrivate: true },
          tls: { cert: served.certFile, key: served.keyFile },
          relay: { stallSeconds: 3 },
          refresh: { intervalHours: 0 },
        }),
      );
      cli = startCli(['serve', '--port', '0', '--quiet'], { cwd: dir });
      await cli.waitForStdout(/^ {2}relay: .*$/m, 60_000);
      marquee = /^ {2}manifest: +(\S+)\/manifest\.json$/m.exec(cli.stdout())![1]!;
      expect(marquee).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

      // The player's page: another origin (localhost), over https too.
      const hlsJs = readFileSync(HLS_JS);
      pageServer = createServer({ cert: readFileSync(page.certFile), key: readFileSync(page.keyFile) }, (req, res) => {
        if (req.url === '/hls.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(hlsJs);
        else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      });
      await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
      pageOrigin = `https://localhost:${(pageServer.address() as AddressInfo).port}`;
      // Chromium trusts the two test certificates by their keys, as it would trust a real CA's.
      const spki = (keyFile: string) =>
        createHash('sha256')
          .update(createPublicKey(readFileSync(keyFile)).export({ type: 'spki', format: 'der' }))
          .digest('base64');
      browser = await launchBrowser({
        args: [`--ignore-certificate-errors-spki-list=${spki(served.keyFile)},${spki(page.keyFile)}`],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      cli?.stop();
      await cli?.done;
      pageServer?.close();
      await Promise.all(hosts.map((h) => h.close()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function player(channel: string): Promise<Page> {
      const page = await browser.context.newPage();
      await page.goto(`${pageOrigin}/`);
      await page.evaluate(
        (streams) => (globalThis as unknown as { play(s: string): Promise<void> }).play(streams),
        `${marquee}/stream/tv/${encodeURIComponent(channel)}.json`,
      );
      return page;
    }

    const stateOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { state: PlayState }).state);

    /** Waits until the video's clock is past `at`, failing on a fatal player error. */
    async function reaches(page: Page, at: number, ms: number): Promise<PlayState> {
      const deadline = Date.now() + ms;
      for (;;) {
        const state = await stateOf(page);
        expect(state.fatal, `player errors on ${state.url}`).toEqual([]);
        if (state.time > at) return state;
        if (Date.now() > deadline) throw new Error(`the video stayed at ${state.time} s (wanted past ${at})`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    /**
     * Waits until the video has played `seconds` of media past where it was (a live stream starts
     * at the live edge, not at 0): the clock must move, not just be set.
     */
    async function playsFor(page: Page, seconds: number, ms = 30_000): Promise<PlayState> {
      const started = await reaches(page, 0, ms);
      const playing = await reaches(page, started.time + seconds, ms);
      return playing;
    }

    it.skipIf(where !== undefined)('plays a live MPEG-TS channel from a plain-http host', async () => {
      const page = await player('mq-tv:news');
      const state = await playsFor(page, 4);
      expect(state.url).toMatch(new RegExp(`^${marquee}/relay/[^/]+/index\\.m3u8$`));
      await page.close();
    });

    it.skipIf(where !== undefined)('plays a live HLS channel whose segments are on a second http host', async () => {
      const page = await player('mq-tv:arte');
      await playsFor(page, 4);
      expect(cdnHost.requests.length).toBeGreaterThan(0);
      // The same playlist, asked for directly by the https page, does not play: mixed content.
      const direct = await browser.context.newPage();
      await direct.goto(`${pageOrigin}/`);
      await direct.evaluate(
        (url) => (globalThis as unknown as { start(u: string): void }).start(url),
        `${hlsHost.url}/hls/index.m3u8`,
      );
      await expect.poll(async () => (await stateOf(direct)).fatal.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect((await stateOf(direct)).time).toBe(0);
      await direct.close();
      await page.close();
    });

    it.skipIf(where !== undefined)('plays a channel that needs its User-Agent and Referer', async () => {
      const page = await player('mq-tv:secure');
      await playsFor(page, 4);
      const asked = secureHost.requests.filter((r) => r.path === '/secure.ts');
      expect(asked.length).toBeGreaterThan(0);
      for (const r of asked)
        expect([r.headers['user-agent'], r.headers.referer]).toEqual(['SecretPlayer/2.0', 'https://tv.example/']);
      await page.close();
    });

    it.skipIf(where !== undefined)(
      'goes on playing from the backup when the first stream dies, 8 s and more',
      async () => {
        const page = await player('mq-tv:backup');
        const playing = await playsFor(page, 2);
        // The provider drops the stream and refuses it from now on.
        firstHost.routes.set('/first.ts', (_req, res) => res.writeHead(404).end());
        firstHost.dropAll();
        const killed = Date.now();
        const after = await reaches(page, playing.time + 8, 40_000);
        // Real time passed for it: played, not jumped to.
        expect(Date.now() - killed).toBeGreaterThanOrEqual(6_000);
        expect(after.time - playing.time).toBeGreaterThanOrEqual(8);
        expect(backupHost.connections.total).toBeGreaterThan(0);
        // The same session went on (the viewer never reconnected): its published status says so.
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const backup = readRelayStatus(relayStatusFile(join(dir, 'marquee.db')))?.sessions.find(
          (x) => x.channel === 'Backup',
        );
        expect(backup).toMatchObject({ failovers: 1, viewers: 1, upstream: expect.stringContaining('/backup.ts') });
        await page.close();
      },
    );
  },
);
