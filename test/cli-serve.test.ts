/**
 * `marquee serve` on the embedded demo, as `npm start` runs it: the printed links, the manifest,
 * today's guide, the library, a clean conformance check, `marquee check` and `marquee export`
 * against it, and a stop that lets a request in flight finish. Plus the real `bin/marquee.js`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../src/checker/index.js';
import { version } from '../src/cli/version.js';
import { type RunningCli, runCli, startCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

let cwd: string;
let cli: RunningCli;
let base: string;
let printed: { manifest: string; configure: string };

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'marquee-serve-'));
  cli = startCli(['serve', '--port', '0'], { cwd });
  // The configure line is the last of the start banner.
  await cli.waitForStdout(/^ {2}configure: \S+$/m);
  const line = (name: string) => new RegExp(`^ {2}${name}: +(\\S+)$`, 'm').exec(cli.stdout())?.[1] ?? '';
  printed = { manifest: line('manifest'), configure: line('configure') };
  base = printed.manifest.replace(/\/manifest\.json$/, '');
});

afterAll(async () => {
  cli?.stop();
  await cli?.done;
  rmSync(cwd, { recursive: true, force: true });
});

/** Today's UTC day, as the guide's date extra names it. */
const today = () => new Date().toISOString().slice(0, 10);

describe('marquee serve on the embedded demo', () => {
  it('prints the manifest URL, how to install it over plain HTTP on this machine, and the configure URL', () => {
    expect(printed.manifest).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/manifest\.json$/);
    // No stremio:// link: the client would open it as https://, which this server does not speak.
    expect(cli.stdout()).not.toMatch(/stremio:\/\/127/);
    expect(cli.stdout()).toContain(
      '  install:   no one-click link over plain HTTP (a stremio:// link always opens https://): paste the\n' +
        `             manifest address into Stremio on this machine, or open https://web.stremio.com/#/addons?addon=${encodeURIComponent(printed.manifest)}\n`,
    );
    expect(printed.configure).toBe(`${base}/configure`);
    expect(cli.stdout()).toContain('Marquee Demo');
    expect(cli.stdout()).toContain('(embedded demo)');
    // The demo keeps its data in a temp folder, not in the working directory.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('serves a configurable manifest, the configure page and / redirecting to it', async () => {
    const manifest = await httpRequest(base, '/manifest.json');
    expect(manifest.status).toBe(200);
    const body = manifest.json();
    expect(body.id).toBe('org.marquee.demo');
    expect(body.behaviorHints.configurable).toBe(true);
    expect(body.config.map((f: { key: string }) => f.key)).toEqual(['groups', 'adult']);
    expect(body.catalogs.map((c: { type: string }) => c.type)).toEqual(['tv', 'movie', 'series']);
    expect((await httpRequest(base, '/')).headers.location).toBe(printed.configure);
    const page = await httpRequest(base, '/configure');
    expect(page.status).toBe(200);
    expect(page.text()).toContain('<label for="field-groups">');
  });

  it('lists the channels with inline logos as posters', async () => {
    const { metas } = (await httpRequest(base, '/catalog/tv/mq-tv-channels.json')).json();
    expect(metas.length).toBe(6);
    for (const meta of metas) {
      expect(meta.poster, meta.name).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
      expect(meta.name).toBeTruthy();
    }
  });

  it("has today's guide: every channel has programmes, one of them on air now", async () => {
    const res = await httpRequest(base, `/catalog/tv/mq-tv-channels/date=${today()}.json`);
    expect(res.status).toBe(200);
    const { metasDetailed } = res.json();
    expect(metasDetailed.length).toBe(6);
    const now = Date.now();
    for (const channel of metasDetailed) {
      const videos: { released: string; title: string }[] = channel.videos;
      expect(videos.length, channel.name).toBeGreaterThan(5);
      expect(videos.some((v) => Date.parse(v.released) <= now)).toBe(true);
      expect(videos.every((v) => v.title.length > 0)).toBe(true);
    }
  });

  it('serves the library feeds with posters, and a stream of a film', async () => {
    const movies = (await httpRequest(base, '/catalog/movie/movies.json')).json().metas;
    expect(movies.length).toBeGreaterThanOrEqual(5);
    // Every demo item has a poster: the film's own over https, else one the demo generates inline.
    const series = (await httpRequest(base, '/catalog/series/series.json')).json().metas;
    expect(series.length).toBeGreaterThanOrEqual(1);
    for (const item of [...movies, ...series])
      expect(item.poster).toMatch(/^(https:\/\/\S+|data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+)$/);
    expect(movies.some((m: { poster: string }) => m.poster.startsWith('https://'))).toBe(true);
    const bunny = movies.find((m: { name: string }) => m.name === 'Big Buck Bunny');
    const { streams } = (await httpRequest(base, `/stream/movie/${encodeURIComponent(bunny.id)}.json`)).json();
    expect(streams.map((st: { url?: string }) => st.url).filter(Boolean)).toContain(
      'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/BigBuckBunny.mp4',
    );
  });

  it('uses the configuration made on /configure: only the chosen channel group', async () => {
    const form = await httpRequest(base, '/configure', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'cfg_groups=News',
    });
    expect(form.status).toBe(200);
    const link = /id="manifest-url" type="text" readonly value="([^"]+)"/.exec(form.text())?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${base}/v1\\.[^/]+/manifest\\.json$`));
    const configured = link.replace(base, '').replace(/manifest\.json$/, '');
    const { metas } = (await httpRequest(base, `${configured}catalog/tv/mq-tv-channels.json`)).json();
    expect(metas.map((m: { name: string }) => m.name)).toEqual(['Marquee News 24']);
  });

  it('passes the conformance checker with no errors', async () => {
    const report = await runCheck(printed.manifest, { rateLimit: 1_000, concurrency: 4, timeoutMs: 5_000 });
    const errors = report.checks.flatMap((c) => c.findings.filter((f) => f.severity === 'error'));
    expect(errors).toEqual([]);
    expect(report.fatal).toBeUndefined();
    expect(report.totals.errors).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.requests.count).toBeGreaterThan(10);
  });

  it('`marquee check` exits 0 on the demo and 2 on an address with no add-on', async () => {
    const ok = await runCli(['check', printed.manifest, '--json', '--rate', '1000', '--max-requests', '60'], { cwd });
    expect(ok.code, ok.stdout).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report).toMatchObject({ ok: true, addon: { id: 'org.marquee.demo' } });

    const human = await runCli(['check', printed.manifest, '--rate', '1000', '--max-requests', '30'], { cwd });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Marquee Demo');
    // The client reads a stremio:// link as https, which this plain-http server does not speak.
    const install = await runCli(['check', printed.manifest.replace(/^http:/, 'stremio:'), '--timeout', '2000'], {
      cwd,
    });
    expect(install.code).toBe(2);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const broken = await runCli(['check', `http://127.0.0.1:${port}/manifest.json`, '--timeout', '2000'], { cwd });
    expect(broken.code).toBe(2);
    const notFound = await runCli(['check', `${base}/no-such/manifest.json`, '--json'], { cwd });
    expect(notFound.code).toBe(2);
    expect(JSON.parse(notFound.stdout).fatal).toBeTruthy();
  });

  it('stops on the signal after finishing a request in flight, exiting 0', async () => {
    const body = 'cfg_groups=News&cfg_adult=true';
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${base}/configure`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // The rest of the body arrives only after the stop was asked for.
      setTimeout(() => {
        cli.stop();
        setTimeout(() => req.end(body.slice(10)), 200);
      }, 100);
    });
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(text).toContain('Ready to install');
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SIGTERM: finishing requests in flight, then stopping');
    // A new connection is refused: the port is closed, not just idle.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('marquee export of the demo', () => {
  it('writes a static add-on with its manifest and catalogs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-export-'));
    try {
      const { code, stdout, stderr } = await runCli(['export', '--out', 'site', '--days-ahead', '1'], { cwd: dir });
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^wrote \d+ files/);
      expect(stderr).toMatch(/exporting the embedded demo \(.*marquee\.db holds no data and no source is configured\)/);
      const manifest = JSON.parse(readFileSync(join(dir, 'site', 'manifest.json'), 'utf8'));
      expect(manifest.id).toBe('org.marquee.demo');
      const movies = JSON.parse(readFileSync(join(dir, 'site', 'catalog', 'movie', 'movies.json'), 'utf8'));
      expect(movies.metas.length).toBeGreaterThanOrEqual(5);
      const day = join(dir, 'site', 'catalog', 'tv', 'mq-tv-channels', `date=${today()}.json`);
      expect(JSON.parse(readFileSync(day, 'utf8')).metasDetailed).toHaveLength(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('marquee export of a database', () => {
  it('exports what the database serves, the demo only with --demo, and leaves the database alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-export-db-'));
    try {
      const films = [{ id: 'tt1727587', type: 'movie', name: 'Sintel', genres: ['Animation'] }];
      writeFileSync(join(dir, 'films.json'), JSON.stringify(films));
      expect((await runCli(['import', '--library', 'films.json', '--db', 'mine.db'], { cwd: dir })).code).toBe(0);

      // No source configured, but the database holds data: that data is exported.
      const own = await runCli(['export', '--db', 'mine.db', '--out', 'site'], { cwd: dir });
      expect(own.code, own.stderr).toBe(0);
      expect(own.stderr).not.toContain('demo');
      const manifest = JSON.parse(readFileSync(join(dir, 'site', 'manifest.json'), 'utf8'));
      expect(manifest.id).not.toBe('org.marquee.demo');
      const movies = JSON.parse(readFileSync(join(dir, 'site', 'catalog', 'movie', 'movies.json'), 'utf8'));
      expect(movies.metas.map((m: { name: string }) => m.name)).toEqual(['Sintel']);

      const before = readFileSync(join(dir, 'mine.db'));
      const demo = await runCli(['export', '--db', 'mine.db', '--out', 'demo-site', '--demo', '--days-ahead', '0'], {
        cwd: dir,
      });
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stderr).toContain('exporting the embedded demo (--demo)');
      expect(JSON.parse(readFileSync(join(dir, 'demo-site', 'manifest.json'), 'utf8')).id).toBe('org.marquee.demo');
      expect(readFileSync(join(dir, 'mine.db')).equals(before)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bin/marquee.js', () => {
  beforeAll(async () => {
    // dist/ is built by `npm ci` (prepare); build it here when a checkout has not.
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 120_000 });
    }
  }, 150_000);

  it('runs as a program: the version, and exit 2 for an unknown command', async () => {
    const bin = join(ROOT, 'bin', 'marquee.js');
    const { stdout } = await run(process.execPath, [bin, '--version'], { cwd: ROOT, timeout: 15_000 });
    expect(stdout).toBe(`${version()}\n`);
    const failed = await run(process.execPath, [bin, 'frobnicate'], { cwd: ROOT, timeout: 15_000 }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "frobnicate"') });
  });
});
