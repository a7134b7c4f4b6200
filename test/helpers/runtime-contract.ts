/**
 * What examples/worker/ must do on every runtime that serves it (workerd, Bun, Deno, Node): one
 * contract, registered by each runtime's test file around its own start (one start per file). The
 * real Stremio client installs it, opens both catalogs (a genre, paging), a film's and the series'
 * meta and streams, and installs a configured address made on its configure page; `marquee
 * check` finds no error at either address; tokens made by Node's codec open there and the
 * reverse; the front page, the response cache and compression behave as that runtime should.
 */
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCodec, parseKeyRing } from '../../src/server/index.js';
import { runCli } from './cli.js';
import { httpRequest } from './http.js';
import { createStremioClient, type StremioClient } from './stremio-client.js';
import { EXAMPLE_ID, EXAMPLE_KEYS } from './worker-example.js';

export interface Served {
  /** The base URL, no trailing slash. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface RuntimeContract {
  /** `workerd`, `Bun`, … */
  readonly runtime: string;
  /** Start the bundled example with MARQUEE_KEYS = EXAMPLE_KEYS. */
  readonly start: () => Promise<Served>;
  /**
   * Who compresses a JSON answer asked with `Accept-Encoding: gzip, br`: the add-on (gzip, with
   * CompressionStream, kept in its response cache), or the platform on the way out, in an
   * encoding of its choosing (Deno.serve; Cloudflare's edge, which miniflare emulates in front of
   * workerd), the add-on then sending it as it is.
   */
  readonly compression: 'add-on' | 'platform';
}

const node = createTokenCodec(parseKeyRing(EXAMPLE_KEYS), EXAMPLE_ID);

/** `marquee check URL --format json`, in process: the exit code and the report. */
async function check(manifestUrl: string) {
  const result = await runCli(['check', manifestUrl, '--format', 'json', '--rate', '1000'], { cwd: tmpdir() });
  return { code: result.code, report: JSON.parse(result.stdout) as Record<string, unknown> & { ok: boolean } };
}

/** Describe the example's contract on one runtime. */
export function describeExampleOn(contract: RuntimeContract): void {
  describe(`examples/worker on ${contract.runtime}`, () => {
    let served: Served;
    let client: StremioClient;
    let base: string;
    let transportUrl: string;

    beforeAll(async () => {
      served = await contract.start();
      base = served.url;
      transportUrl = `${base}/manifest.json`;
      client = await createStremioClient();
    }, 60_000);
    afterAll(async () => {
      client?.close();
      await served?.stop();
    });

    it('installs in the real client, with both catalogs and its configure page offered', async () => {
      const descriptor = await client.installAddon(transportUrl);
      expect(descriptor.manifest.id).toBe(EXAMPLE_ID);
      expect(descriptor.manifest.catalogs.map((c: { id: string }) => c.id)).toEqual(['wf-films', 'wf-series']);
      expect(descriptor.manifest.behaviorHints).toMatchObject({ configurable: true });
    });

    it('opens the catalogs in the real client: every film, a genre, the series', async () => {
      const all = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'wf-films' });
      expect(all.error).toBeNull();
      expect(all.items.map((i) => i.name)).toEqual(['Big Buck Bunny', 'Elephants Dream', 'Sintel', 'Tears of Steel']);
      const fantasy = await client.loadWholeCatalog({
        transportUrl,
        type: 'movie',
        id: 'wf-films',
        extra: [['genre', 'Science Fiction']],
      });
      expect(fantasy.items.map((i) => i.name)).toEqual(['Elephants Dream', 'Tears of Steel']);
      expect(client.requestPaths(transportUrl)).toContain('/catalog/movie/wf-films/genre=Science%20Fiction.json');
      const series = await client.loadWholeCatalog({ transportUrl, type: 'series', id: 'wf-series' });
      expect(series.items.map((i) => i.name)).toEqual(['Bigger Screens']);
    });

    it("opens a film's and an episode's meta and streams in the real client", async () => {
      const film = await client.loadMeta({ transportUrl, type: 'movie', id: 'wf:sintel' });
      expect(film.metaError).toBeNull();
      expect(film.meta?.name).toBe('Sintel');
      expect(film.streams.map((s) => s.url)).toEqual([
        'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/Sintel.mp4',
        'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/Sintel.mp4',
      ]);
      const episode = await client.loadMeta({
        transportUrl,
        type: 'series',
        id: 'wf:shorts',
        videoId: 'wf:shorts:1:3',
      });
      expect(episode.metaError).toBeNull();
      expect(episode.meta?.videos).toHaveLength(5);
      expect(episode.streams[0]?.url).toMatch(/ForBiggerFun\.mp4$/);
    });

    it('makes a configured address on its configure page, which the real client installs and uses', async () => {
      const page = await httpRequest(base, '/configure');
      expect(page.status).toBe(200);
      expect(page.text()).toContain('name="cfg_token"');
      const form = new URLSearchParams({ cfg_quality: '720p', cfg_token: 's3cret/token' }).toString();
      const made = await httpRequest(base, '/configure', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: form,
      });
      expect(made.status, made.text()).toBe(200);
      const configured = new RegExp(`${base.replace(/[.:/]/g, '\\$&')}/(v1\\.[^/"]+)/manifest\\.json`).exec(
        made.text(),
      );
      expect(configured, made.text()).not.toBeNull();
      const token = decodeURIComponent(configured![1]!);
      expect(token).not.toContain('s3cret');
      // The runtime's token opens with Node's codec and the same key ring.
      expect(node.decode(token)).toEqual({ quality: '720p', token: 's3cret/token' });

      // A user who installs the configured address (a profile without the plain one).
      const configuredUrl = configured![0]!;
      const user = await createStremioClient();
      try {
        const descriptor = await user.installAddon(configuredUrl);
        expect(descriptor.transportUrl).toBe(configuredUrl);
        const film = await user.loadMeta({ transportUrl: configuredUrl, type: 'movie', id: 'wf:big-buck-bunny' });
        expect(film.streams.map((s) => s.url)).toEqual([
          'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/BigBuckBunny.mp4',
          'https://media.example.org/BigBuckBunny.mp4?token=s3cret%2Ftoken',
        ]);
        expect(JSON.stringify(film.streams[0])).toMatch(/720p/);
      } finally {
        user.close();
      }
    });

    it("opens a token made by Node's codec, and refuses a tampered one", async () => {
      const token = encodeURIComponent(node.encode({ quality: '1080p', token: 'from-node' }));
      const streams = await httpRequest(base, `/${token}/stream/movie/wf:sintel.json`);
      expect(streams.status).toBe(200);
      expect(streams.json().streams.map((s: { url: string }) => s.url)).toEqual([
        'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/Sintel.mp4',
        'https://media.example.org/Sintel.mp4?token=from-node',
      ]);
      expect((await httpRequest(base, `/${token}/manifest.json`)).status).toBe(200);
      const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
      expect((await httpRequest(base, `/${tampered}/manifest.json`)).status).toBe(404);
      expect((await httpRequest(base, `/${tampered}/stream/movie/wf:sintel.json`)).status).toBe(404);
    });

    it('passes `marquee check` with no error, unconfigured and configured', async () => {
      const plain = await check(transportUrl);
      expect(plain.code, JSON.stringify(plain.report, null, 2)).toBe(0);
      expect(plain.report.ok).toBe(true);
      // It crawled: the catalogs, their pages and genres, metas and streams.
      expect((plain.report.requests as { count: number }).count).toBeGreaterThan(10);
      expect(plain.report.totals).toEqual({ errors: 0, warnings: 0, infos: 0 });
      const token = encodeURIComponent(node.encode({ quality: 'any', token: 'x' }));
      const configured = await check(`${base}/${token}/manifest.json`);
      expect(configured.code, JSON.stringify(configured.report, null, 2)).toBe(0);
    });

    it('sends the front page to the configure page, and answers cached pages with their ETag', async () => {
      const front = await httpRequest(base, '/');
      expect(front.status).toBe(302);
      expect(front.headers.location).toBe(`${base}/configure`);
      const first = await httpRequest(base, '/catalog/movie/wf-films.json');
      const again = await httpRequest(base, '/catalog/movie/wf-films.json');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toMatch(/max-age=3600/);
      const unchanged = await httpRequest(base, '/catalog/movie/wf-films.json', {
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      expect(unchanged.status).toBe(304);
    });

    it(`compresses as ${contract.runtime} should (${contract.compression})`, async () => {
      const page = await httpRequest(base, '/catalog/movie/wf-films.json', {
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(page.json().metas).toHaveLength(4);
      const encoding = page.headers['content-encoding'];
      if (contract.compression === 'add-on') expect(encoding).toBe('gzip');
      else expect(encoding).toMatch(/^(gzip|br)$/);
      expect(page.headers.vary).toMatch(/Accept-Encoding/i);
    });
  });
}
