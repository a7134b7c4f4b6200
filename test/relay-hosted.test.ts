/**
 * The relay in hosted mode: off unless `hosted.relay` is set; then a user's stream answers give
 * relay links on the instance's origin, naming their source set (signed), and each set has its own
 * upstream cap: a second channel past it gets the 503 naming the limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './helpers/cli.js';
import { form } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { type LiveHost, liveTs, startLiveHost } from './helpers/live-host.js';
import { tsStream } from './helpers/ts-stream.js';

const CLIP = tsStream({ frames: 25 * 20 });
let upstream: LiveHost;
const dirs: string[] = [];

beforeAll(async () => {
  upstream = await startLiveHost();
  upstream.routes.set('/one.ts', liveTs(CLIP));
  upstream.routes.set('/two.ts', liveTs(CLIP));
  upstream.routes.set('/user.m3u', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'audio/x-mpegurl' })
      .end(
        `#EXTM3U\n#EXTINF:-1 tvg-id="one",One\n${upstream.url}/one.ts\n#EXTINF:-1 tvg-id="two",Two\n${upstream.url}/two.ts\n`,
      ),
  );
});
afterAll(async () => {
  await upstream.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A hosted instance with `settings`, a user configured, and the streams answer of each channel. */
async function hostedStreams(settings: object, check: (streams: (id: string) => Promise<string[]>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-relay-hosted-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'marquee.json'), JSON.stringify({ hosted: { enabled: true }, ...settings }));
  const cli = startCli(['serve', '--port', '0', '--allow-private-sources', '--quiet'], { cwd: dir });
  try {
    const [, url] = await cli.waitForStdout(/manifest: +(\S+)/);
    const base = url!.replace(/\/manifest\.json$/, '');
    const answer = await httpRequest(base, '/configure', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ playlist: `${upstream.url}/user.m3u` }),
    });
    expect(answer.status, answer.text()).toBe(200);
    const prefix = new URL(answer.json().manifestUrl).pathname.replace('manifest.json', '');
    await check(async (id) => {
      const streams = await httpRequest(base, `${prefix}stream/tv/${encodeURIComponent(id)}.json`);
      return (streams.json().streams as { url: string }[]).map((s) => s.url);
    });
    return cli.stdout();
  } finally {
    cli.stop();
    await cli.done;
  }
}

describe('the relay in hosted mode', () => {
  it('is off unless hosted.relay is set', async () => {
    await hostedStreams({}, async (streams) => {
      expect(await streams('mq-tv:one')).toEqual([`${upstream.url}/one.ts`]);
    });
  });

  it('with hosted.relay, relays users streams with each source set capped', async () => {
    const banner = await hostedStreams({ hosted: { enabled: true, relay: { maxUpstreams: 1 } } }, async (streams) => {
      const [one] = await streams('mq-tv:one');
      const [two] = await streams('mq-tv:two');
      expect(one).toMatch(/\/relay\/[^/]+\/index\.m3u8$/);
      expect(one).not.toContain(upstream.url);
      expect((await fetch(one!)).status).toBe(200);
      const refused = await fetch(two!);
      expect(refused.status).toBe(503);
      expect(await refused.text()).toMatch(/limit of 1 relayed channel at once \(hosted\.relay\).*in use by One/);
      const front = await (await fetch(one!.replace(/\/relay\/.*$/, '/'))).text();
      expect(front).toContain('Channels play through this server&#39;s relay');
      // A token made for one set names nothing in another: changed, it is refused.
      expect((await fetch(one!.replace(/\.([^./]+)\/index/, '.AAAA$1/index'))).status).toBe(403);
    });
    expect(banner).toMatch(/relay: +on for users' streams \(hosted\.relay\): 1 upstream and 6 viewers per source set/);
  });
});
