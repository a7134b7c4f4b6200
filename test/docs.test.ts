/**
 * Every code block in README.md and docs/*.md runs here, as a reader would run it. A block names
 * its runner in a comment on the line above it (`<!-- test: NAME -->`); a block without one, or
 * naming no runner below, fails the suite, so a new block cannot be left untested. Runners start
 * modules as files of their own and shell lines with `marquee`/`npx marquee`/`npm start` from
 * this checkout (test/docs/blocks.ts), and assert what they answer. Where a block names an
 * address the test cannot reach (a public host), the runner says what it substitutes.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAddon, importAll } from '../src/cli/app.js';
import { loadSettingsFile } from '../src/cli/settings.js';
import { demoGuide, demoPlaylist } from '../src/demo/index.js';
import { parseLibraryCsv, parseLibraryJson } from '../src/library/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { openStore, shrinkReason, sourceKey, sourceLine, yieldPolicy } from '../src/store/index.js';
import {
  type Block,
  commandsOf,
  documentationFiles,
  extractBlocks,
  ROOT,
  startModule,
  startShell,
  typecheck,
} from './docs/blocks.js';
import { HEALTH_RUNNERS } from './docs/health-runners.js';
import { HTTPS_RUNNERS } from './docs/https-runners.js';
import { RELAY_RUNNERS } from './docs/relay-runners.js';
import { WORKER_RUNNERS } from './docs/worker-runners.js';
import { runCli } from './helpers/cli.js';
import { httpRequest } from './helpers/http.js';
import { nginxBinary, testNginxConfig, writeNginxConfig } from './helpers/nginx.js';
import { freePort } from './helpers/ports.js';
import { needs, type Tool } from './helpers/tools.js';
import { startPanel } from './helpers/xtream-panel.js';

const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-docs-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding the files the README's commands name: a playlist, a gzip guide around now, a library. */
function ownFiles(): string {
  const dir = folder();
  writeFileSync(join(dir, 'tv.m3u'), demoPlaylist());
  writeFileSync(join(dir, 'guide.xml.gz'), gzipSync(demoGuide(Date.now())));
  writeFileSync(join(dir, 'movies.json'), readFileSync(join(ROOT, 'examples', 'library', 'library.json')));
  return dir;
}

const RUNNERS: Record<string, (block: Block) => Promise<void>> = {
  /** docs/https.md (test/docs/https-runners.ts). */
  ...HTTPS_RUNNERS,
  /** docs/health.md (test/docs/health-runners.ts). */
  ...HEALTH_RUNNERS,
  /** docs/relay.md (test/docs/relay-runners.ts). */
  ...RELAY_RUNNERS,
  /** examples/worker/README.md (test/docs/worker-runners.ts). */
  ...WORKER_RUNNERS,
  /** `npm ci && npm start` / `npm ci && npm run check`: start serves the demo; CI runs both lines. */
  async 'readme-start'(block) {
    const commands = commandsOf(block);
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm run check']);
    // The test machine has run `npm ci` already, and `npm run check` is this very run (as .ci/run does).
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/npm ci\b[^\n]*\n+npm run check/);
    const started = startShell(folder(), 'npm start', { MARQUEE_PORT: '0' });
    try {
      const [, url] = await started.waitFor(/manifest: +(\S+)/, 60_000);
      const manifest = await httpRequest(url!, new URL(url!).pathname);
      expect(manifest.status).toBe(200);
      expect(manifest.json().name).toBe('Marquee Demo');
      const front = await httpRequest(url!, '/');
      expect(front.status).toBeLessThan(400);
    } finally {
      expect(await started.stop()).toBe(0);
    }
  },

  /** Import the three files, then serve them (on a free port: MARQUEE_PORT=0, the flags are the block's). */
  async 'readme-own-files'(block) {
    const [importLine, serveLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const dir = ownFiles();
    const imported = startShell(dir, importLine!);
    const code = await imported.exited;
    expect(imported.stderr(), imported.stderr()).not.toMatch(/error|problem/i);
    expect(code, imported.stdout() + imported.stderr()).toBe(0);
    expect(imported.stdout()).toMatch(/channel/);
    // --public-url names the address users reach; the test reaches the port it gives MARQUEE_PORT.
    const local = await freePort();
    const served = startShell(dir, serveLine!, { MARQUEE_PORT: String(local) });
    try {
      const [, printed] = await served.waitFor(/manifest: +(\S+)/, 60_000);
      expect(printed).toBe('https://tv.example.org/manifest.json');
      const manifest = await httpRequest(`http://127.0.0.1:${local}`, '/manifest.json');
      expect(manifest.status).toBe(200);
      const body = manifest.json();
      expect(body.types).toEqual(expect.arrayContaining(['tv', 'movie']));
      const guide = await httpRequest(
        `http://127.0.0.1:${local}`,
        `/catalog/tv/mq-tv-channels/date=${new Date().toISOString().slice(0, 10)}.json`,
      );
      expect(guide.json().metasDetailed.length).toBeGreaterThan(0);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  },

  /**
   * Installing from a checkout: in a fresh project beside `marquee` (a link to this checkout,
   * which `npm ci` built), the block's lines as shown with the real npm and npx, offline (the
   * tests fetch nothing, and a folder's install needs nothing from the registry). The project
   * then imports the package by its name, too.
   */
  async 'readme-install-checkout'(block) {
    const lines = commandsOf(block);
    expect(lines).toEqual(['npm install ../marquee', 'npx marquee --version']);
    const dir = folder();
    symlinkSync(ROOT, join(dir, 'marquee'));
    const project = join(dir, 'my-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "my-project", "version": "1.0.0", "private": true }\n');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const run = (file: string, args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(file, args, { cwd: project, env, timeout: 110_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    const install = await run('sh', ['-c', lines[0]!]);
    expect(install.code, install.stderr).toBe(0);
    const version = await run('sh', ['-c', lines[1]!]);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const imported = await run(process.execPath, [
      '--input-type=module',
      '-e',
      "const { createAddon } = await import('stremio-marquee/addon'); console.log(typeof createAddon)",
    ]);
    expect(imported.stdout.trim(), imported.stderr).toBe('function');
  },

  /** The settings file: read and checked as `marquee` reads it; relative paths resolve beside it. */
  async 'readme-settings'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'marquee.yaml'), block.text);
    const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
    expect(settings.port).toBe(7000);
    expect(settings.livetv?.playlists).toEqual([join(dir, 'tv.m3u')]);
    expect(settings.livetv?.guides?.[1]).toEqual({ url: join(dir, 'local-guide.xml'), shiftHours: 1 });
    expect(settings.library?.files).toEqual([join(dir, 'movies.json'), join(dir, 'series.csv')]);
  },

  /** The SDK example as films.mjs: it starts, prints its address, and answers catalog, genre and streams. */
  async 'readme-sdk'(block) {
    // README says the same code works as films.ts, its handlers typed from the manifest.
    expect(await typecheck(folder(), 'films.ts', block.text)).toBe('');
    const started = startModule(folder(), 'films.mjs', block.text, { PORT: '0' });
    try {
      const [, base] = await started.waitFor(/open (http:\/\/\S+)\/ /);
      const manifest = await httpRequest(base!, '/manifest.json');
      expect(manifest.json().id).toBe('org.example.films');
      const all = await httpRequest(base!, '/catalog/movie/films.json');
      expect(all.status).toBe(200);
      expect(all.json().metas.map((m: { name: string }) => m.name)).toEqual([
        'Big Buck Bunny',
        'Sintel',
        'Tears of Steel',
      ]);
      const animation = await httpRequest(base!, '/catalog/movie/films/genre=Animation.json');
      expect(animation.json().metas).toHaveLength(2);
      const skipped = await httpRequest(base!, '/catalog/movie/films/skip=2.json');
      expect(skipped.json().metas).toHaveLength(1);
      const streams = await httpRequest(base!, '/stream/movie/tt1727587.json');
      expect(streams.json().streams[0].url).toMatch(/^https:\/\//);
      const none = await httpRequest(base!, '/stream/movie/tt0000001.json');
      expect(none.json()).toEqual({ streams: [] });
      expect(started.stderr()).toBe('');
    } finally {
      await started.stop();
    }
  },

  /** `marquee check` against the demo: the block's 127.0.0.1:7000 is the demo the test started on a free port. */
  async 'checker-usage'(block) {
    const port = await freePort();
    const demo = startShell(folder(), 'npm start', { MARQUEE_PORT: String(port) });
    try {
      await demo.waitFor(/manifest: +\S+/, 60_000);
      const dir = folder();
      for (const line of commandsOf(block)) {
        expect(line).toContain('127.0.0.1:7000');
        const check = startShell(dir, line.replace('127.0.0.1:7000', `127.0.0.1:${port}`));
        expect(await check.exited, check.stdout() + check.stderr()).toBe(0);
      }
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(report.ok).toBe(true);
      expect(report.addon.name).toBe('Marquee Demo');
      expect(report.totals.errors).toBe(0);
    } finally {
      expect(await demo.stop()).toBe(0);
    }
  },

  /** exportAddon from a module: ./public holds the manifest and the catalog page. */
  async 'export-api'(block) {
    const dir = folder();
    const started = startModule(dir, 'export.mjs', block.text);
    expect(await started.exited, started.stderr()).toBe(0);
    expect(started.stdout()).toMatch(/^\d+ \[\] \[\]\n$/);
    expect(JSON.parse(readFileSync(join(dir, 'public', 'manifest.json'), 'utf8')).id).toBe('org.example.static');
    expect(JSON.parse(readFileSync(join(dir, 'public', 'catalog', 'movie', 'films.json'), 'utf8')).metas).toHaveLength(
      1,
    );
  },

  /** The crontab line: a valid schedule, and its command run with its three paths moved into a temp folder. */
  async 'export-cron'(block) {
    const [line, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const fields = line!.split(/\s+/);
    const schedule = fields.slice(0, 5);
    expect(schedule).toEqual(['*/15', '*', '*', '*', '*']);
    const dir = await importedFolder();
    const command = fields
      .slice(5)
      .join(' ')
      .replace('/srv/marquee', dir)
      .replace('/var/www/addon', join(dir, 'www'))
      .replace('/var/log/marquee-export.log', join(dir, 'export.log'));
    const run = startShell(dir, command);
    expect(await run.exited, readFileSync(join(dir, 'export.log'), 'utf8')).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'www', 'manifest.json'), 'utf8')).types).toContain('tv');
    expect(readFileSync(join(dir, 'export.log'), 'utf8')).toMatch(/\d+ files/);
  },

  /** The nginx server block, on 127.0.0.1 without TLS, serving an export: CORS and the subtitles rule. */
  async 'export-nginx'(block) {
    const site = await exportedSite();
    const dir = folder();
    const port = await freePort();
    expect(block.text).toContain('listen 443 ssl;');
    const server = block.text
      .replace('listen 443 ssl;', `listen 127.0.0.1:${port};`)
      .replace('root /var/www/addon;', `root ${site};`);
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `user root;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\naccess_log off;\n${temp.join('\n')}\n${server}}\n`,
    );
    const nginx = startShell(dir, `nginx -p ${dir} -c ${dir}/nginx.conf -g 'daemon off;'`);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitUntil(async () => (await httpRequest(base, '/manifest.json').catch(() => undefined))?.status === 200);
      const manifest = await httpRequest(base, '/manifest.json');
      expect(manifest.headers['access-control-allow-origin']).toBe('*');
      expect(manifest.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=1800');
      const plain = await httpRequest(base, '/subtitles/movie/tt1727587.json');
      expect(plain.status).toBe(200);
      const hashed = await httpRequest(base, '/subtitles/movie/tt1727587/videoHash=0123abcd&videoSize=1000.json');
      expect(hashed.status).toBe(200);
      expect(hashed.json()).toEqual(plain.json());
      expect(hashed.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await nginx.stop();
    }
  },

  /** The public instance's settings: every hosted key as the page names it. */
  async 'hosted-settings'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'marquee.yaml'), block.text);
    const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
    expect(settings.hosted).toEqual({
      enabled: true,
      concurrentImports: 2,
      maxSourceSets: 500,
      diskBudgetMegabytes: 2048,
      minKeepMinutes: 60,
      waitSeconds: 8,
      importsPerMinute: 4,
    });
    expect(settings.security?.trustProxy).toBe(true);
  },

  /**
   * `marquee serve --config marquee.yaml` with the settings block above, moved to a free port, the
   * key file into the test's folder and without publicUrl (so the printed link is reachable).
   */
  async 'hosted-serve'(block) {
    expect(commandsOf(block)).toEqual(['marquee serve --config marquee.yaml']);
    const settings = ALL.find((b) => b.name === 'hosted-settings')!.text;
    const dir = folder();
    writeFileSync(
      join(dir, 'marquee.yaml'),
      settings
        .replace(/^port: 7000$/m, 'port: 0')
        .replace(/^publicUrl: .*\n/m, '')
        .replace('/var/lib/marquee/keys.json', join(dir, 'keys.json')),
    );
    const started = startShell(dir, commandsOf(block)[0]!);
    try {
      const [, url] = await started.waitFor(/manifest: +(\S+)/, 60_000);
      const base = url!.replace(/\/manifest\.json$/, '');
      const manifest = (await httpRequest(base, '/manifest.json')).json();
      expect(manifest.behaviorHints).toMatchObject({ configurable: true, configurationRequired: true });
      // Without --allow-private-sources a user's URL may not reach this machine.
      const refused = await httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'cfg_playlist=http%3A%2F%2F127.0.0.1%3A9%2Flist.m3u',
      });
      expect(refused.status).toBe(422);
      expect(refused.json().error.message).toMatch(/private or local address/);
    } finally {
      expect(await started.stop()).toBe(0);
    }
  },

  /**
   * The nginx block of docs/scaling.md, moved to 127.0.0.1 without TLS, checked by nginx itself;
   * test/hosted-nginx.test.ts runs it in front of two replicas.
   */
  async 'scaling-nginx'(block) {
    const nginx = nginxBinary();
    expect(nginx, 'nginx is needed by this block (apt-get install nginx)').toBeDefined();
    const dir = folder();
    const conf = writeNginxConfig(dir, block.text, await freePort(), [await freePort(), await freePort()]);
    const checked = testNginxConfig(nginx!, dir, conf);
    expect(checked.code, checked.output).toBe(0);
  },

  /** docs/export.md's serve.py: written beside an export and checked by the next block's runner. */
  async 'export-python-server'(block) {
    expect(block.text).toContain("('127.0.0.1', 8000)");
    expect(ALL.some((b) => b.name === 'export-python')).toBe(true);
  },

  /**
   * `python3 serve.py` (the block above, its port 8000 moved to a free one) on an export, then
   * `marquee check` of it, which passes: CORS and cache headers on every answer, the subtitles
   * rule (a hashed request answered with the plain file), no lifetime on a 404.
   */
  async 'export-python'(block) {
    const site = await exportedSite();
    const [serveLine, checkLine, ...rest] = commandsOf(block);
    expect([serveLine, rest]).toEqual(['python3 serve.py', []]);
    const port = await freePort();
    const dir = join(site, '..');
    expect(site).toBe(join(dir, 'public'));
    const script = ALL.find((b) => b.name === 'export-python-server')!.text;
    writeFileSync(join(dir, 'serve.py'), script.replace("('127.0.0.1', 8000)", `('127.0.0.1', ${port})`));
    const server = startShell(dir, serveLine!);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitUntil(async () => (await httpRequest(base, '/manifest.json').catch(() => undefined))?.status === 200);
      const manifest = await httpRequest(base, '/manifest.json');
      expect(manifest.headers['access-control-allow-origin']).toBe('*');
      expect(manifest.headers['cache-control']).toBe('public, max-age=300');
      const hashed = await httpRequest(base, '/subtitles/movie/tt1727587/videoHash=0123abcd&videoSize=1000.json');
      expect(hashed.status).toBe(200);
      expect(hashed.json()).toEqual((await httpRequest(base, '/subtitles/movie/tt1727587.json')).json());
      const missing = await httpRequest(base, '/meta/movie/tt0000001.json');
      expect([missing.status, missing.headers['cache-control']]).toEqual([404, 'no-store']);
      expect(checkLine).toBe('marquee check http://127.0.0.1:8000/manifest.json');
      const check = startShell(dir, checkLine!.replace(':8000/', `:${port}/`));
      expect(await check.exited, check.stdout() + check.stderr()).toBe(0);
      expect(check.stdout()).toMatch(/^ {2}CORS +PASS +0 +0/m);
      expect(check.stdout()).toMatch(/^OK: 0 errors/m);
    } finally {
      await server.stop();
    }
  },

  /** Each line is a whole library file; each reads as the items it holds. */
  async 'library-json-shapes'(block) {
    const counts = commandsOf(block).map((text) => {
      const read = parseLibraryJson(text, { source: 'shape.json' });
      expect(read.warnings).toEqual([]);
      return read.items.length;
    });
    expect(counts).toEqual([2, 1, 1]);
  },

  /** `item  →  id`: the reader gives each item the id shown. */
  async 'library-generated-ids'(block) {
    for (const line of commandsOf(block)) {
      const [item, id] = line.split(/\s+→\s+/);
      const read = parseLibraryJson(item!, { source: 'ids.json' });
      expect(read.items.map((i) => i.id)).toEqual([id]);
    }
  },

  /** The CSV: one series with its two episodes, each with its YouTube stream. */
  async 'library-csv-episodes'(block) {
    const { items, warnings } = parseLibraryCsv(block.text, { source: 'series.csv' });
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]!.videos.map((v) => [v.season, v.episode, v.title, v.streams[0]?.ytId])).toEqual([
      [1, 2, 'Gran Dillama', 'Z4C82eyhwgU'],
      [1, 3, 'Llamigos', 'SkVqJ1SGeL0'],
    ]);
  },

  /** The reading API from a module, beside a library.json and a semicolon CSV. */
  async 'library-reading-api'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'library.json'), readFileSync(join(ROOT, 'examples', 'library', 'library.json')));
    writeFileSync(
      join(dir, 'library.csv'),
      readFileSync(join(ROOT, 'test', 'fixtures', 'library', 'movies-semicolon.csv')),
    );
    const started = startModule(dir, 'read.mjs', block.text);
    expect(await started.exited, started.stderr()).toBe(0);
    const [items, warnings, fromText, fromCsv] = started.stdout().trim().split(' ').map(Number);
    expect(items).toBeGreaterThan(5);
    expect(fromText).toBe(items);
    expect(warnings).toBe(0);
    expect(fromCsv).toBeGreaterThan(0);
  },

  /** The library API from a module: imports the three sources, serves the declared catalog. */
  async 'library-api'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'library.json'), readFileSync(join(ROOT, 'examples', 'library', 'library.json')));
    writeFileSync(join(dir, 'extra.csv'), readFileSync(join(ROOT, 'test', 'fixtures', 'library', 'series.csv')));
    cpSync(join(ROOT, 'test', 'fixtures', 'library', 'folder'), join(dir, 'items'), { recursive: true });
    const started = startModule(dir, 'films.mjs', block.text, { PORT: '0' });
    try {
      const [url] = await started.waitFor(/http:\/\/\S+\/manifest\.json/);
      const base = url!.replace(/\/manifest\.json$/, '');
      const manifest = (await httpRequest(base, '/manifest.json')).json();
      expect(manifest.catalogs.map((c: { id: string }) => c.id)).toEqual(['top']);
      const top = (await httpRequest(base, '/catalog/movie/top.json')).json();
      expect(top.metas.length).toBeGreaterThan(3);
      expect(started.stderr()).toBe('');
    } finally {
      await started.stop();
    }
  },

  /** Declared catalogs: the settings file, imported and served, declares exactly these. */
  async 'library-catalogs-settings'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'library.json'), readFileSync(join(ROOT, 'examples', 'library', 'library.json')));
    writeFileSync(join(dir, 'marquee.yaml'), block.text);
    const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
    const store = openStore(join(dir, 'marquee.db'));
    try {
      await importAll(store, settings);
      const addon = buildAddon(store, settings, join(dir, 'keys.json'));
      const catalogs = addon.manifest.catalogs.map((c) => [c.id, (c.extra ?? []).map((e) => e.name)]);
      expect(catalogs).toEqual([
        ['top', ['skip']],
        ['az', ['genre', 'skip']],
        ['shows', ['search', 'genre', 'skip']],
      ]);
    } finally {
      store.close();
    }
  },

  /**
   * docs/xtream.md: import an account, then serve it. The account is the test's fake panel on
   * 127.0.0.1 in place of tv.example (unreachable), with its credentials in the URL as shown.
   */
  async 'xtream-cli'(block) {
    const [importLine, serveLine, ...rest] = commandsOf(block);
    expect(rest).toEqual([]);
    const panel = await startPanel({ live: 12, movies: 5, series: 2 });
    try {
      const dir = folder();
      const shown = 'http://USER:PASS@tv.example:8080';
      expect(importLine).toContain(shown);
      const imported = startShell(dir, importLine!.replace(shown, panel.account));
      expect(await imported.exited, imported.stdout() + imported.stderr()).toBe(0);
      const served = startShell(dir, serveLine!, { MARQUEE_PORT: '0' });
      try {
        const [, url] = await served.waitFor(/manifest: +(\S+)/, 60_000);
        const manifest = (await httpRequest(url!, new URL(url!).pathname)).json();
        expect(manifest.catalogs.map((c: { type: string }) => c.type).sort()).toEqual(['movie', 'series', 'tv']);
        const base = url!.replace(/\/manifest\.json$/, '');
        const movies = (await httpRequest(base, '/catalog/movie/movies.json')).json();
        expect(movies.metas).toHaveLength(5);
      } finally {
        expect(await served.stop()).toBe(0);
      }
    } finally {
      await panel.close();
    }
  },

  /**
   * docs/catchup.md's playlist, with a guide of hourly programmes around now: every entry gets
   * its catch-up stream on the programme that aired two hours ago, of the shape its mode says,
   * and none on the next one.
   */
  async 'catchup-playlist'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'tv.m3u'), block.text);
    const ids = [...block.text.matchAll(/tvg-id="([^"]+)"/g)].map((m) => m[1]!);
    const hour = 3_600_000;
    const first = Math.floor(Date.now() / hour) * hour - 24 * hour;
    let xml = '<tv>';
    for (const id of ids) xml += `<channel id="${id}"><display-name>${id}</display-name></channel>`;
    for (const id of ids)
      for (let at = first; at < first + 48 * hour; at += hour)
        xml += `<programme start="${formatXmltvTime(at)}" stop="${formatXmltvTime(at + hour)}" channel="${id}"><title>${id}</title></programme>`;
    writeFileSync(join(dir, 'guide.xml'), `${xml}</tv>`);
    const store = openStore(join(dir, 'marquee.db'));
    try {
      await importAll(store, {
        db: join(dir, 'marquee.db'),
        livetv: { playlists: [join(dir, 'tv.m3u')], guides: [join(dir, 'guide.xml')] },
      });
      const addon = buildAddon(store, { db: join(dir, 'marquee.db') }, join(dir, 'keys.json'));
      const aired = Math.floor(Date.now() / hour) * hour - 2 * hour;
      const shapes: Record<string, RegExp> = {
        'one.tv': new RegExp(String.raw`^https://arch\.example/one/${aired / 1000}-3600\.m3u8$`),
        'two.tv': new RegExp(String.raw`^https://live\.example/two\.m3u8\?utc=${aired / 1000}&lutc=\d+$`),
        'three.tv': new RegExp(String.raw`^https://live\.example/three\.m3u8\?utc=${aired / 1000}&lutc=\d+$`),
        'four.tv': new RegExp(String.raw`^https://fs\.example/four/mono-${aired / 1000}-3600\.m3u8\?token=abc$`),
        'five.tv': /^http:\/\/xc\.example:8080\/timeshift\/user\/pass\/60\/\d{4}-\d\d-\d\d:\d\d-00\/5\.ts$/,
      };
      expect(Object.keys(shapes)).toEqual(ids);
      for (const id of ids) {
        const answer = await addon.handle({ resource: 'meta', type: 'tv', id: `mq-tv:${id}`, extra: [] });
        expect(answer.status).toBe(200);
        const videos = (
          answer as unknown as { body: { meta: { videos: { startTime: string; streams?: { url: string }[] }[] } } }
        ).body.meta.videos;
        const at = (ms: number) => videos.find((v) => Date.parse(v.startTime) === ms);
        expect(
          at(aired)?.streams?.map((x) => x.url),
          id,
        ).toEqual([expect.stringMatching(shapes[id]!)]);
        expect(at(aired + 3 * hour)?.streams, id).toBeUndefined();
      }
    } finally {
      store.close();
    }
  },

  /** A settings file fragment: read and checked as `marquee` reads marquee.yaml. */
  async 'settings-file'(block) {
    const dir = folder();
    writeFileSync(join(dir, 'marquee.yaml'), block.text);
    expect(() => loadSettingsFile(join(dir, 'marquee.yaml'))).not.toThrow();
  },

  /**
   * A kept source's line, as docs/livetv.md shows it: the same words and numbers the import
   * writes (sourceLine over shrinkReason) for a guide that fell from 41,300 programmes to 0.
   */
  async 'kept-line'(block) {
    const location = 'https://epg.example/guide.xml.gz';
    const state = {
      key: sourceKey('guide', location),
      area: 'livetv',
      kind: 'guide',
      label: location,
      position: 1,
      goodAt: Date.parse('2026-11-23T06:00:00Z'),
      goodCounts: { programmes: 41_300 },
      keptSince: Date.parse('2026-11-24T06:00:00Z'),
    };
    const reason = shrinkReason(
      state,
      'programmes',
      'programmes for our channels',
      0,
      yieldPolicy({}),
      location,
      location,
    );
    const line = sourceLine(
      { key: state.key, kind: 'guide', label: location, outcome: 'kept', ...(reason ? { reason } : {}) },
      state,
    );
    expect(block.text.trim()).toBe(line);
  },

  /** The live-TV API from a module: imports a playlist and a gzip guide, serves today's guide. */
  async 'livetv-api'(block) {
    const dir = ownFiles();
    const started = startModule(dir, 'tv.mjs', block.text, { PORT: '0' });
    try {
      const [line, channels, url] = await started.waitFor(/(\d+) channels at (http:\/\/\S+)\/manifest\.json/);
      expect(Number(channels), line).toBeGreaterThan(0);
      const guide = await httpRequest(
        url!,
        `/catalog/tv/mq-tv-channels/date=${new Date().toISOString().slice(0, 10)}.json`,
      );
      expect(guide.json().metasDetailed).toHaveLength(Number(channels));
      expect(started.stderr()).toBe('');
    } finally {
      await started.stop();
    }
  },

  /** docs/livetv.md's matching settings: they load, and the import honours them (a pin, a null). */
  async 'livetv-matching-settings'(block) {
    const dir = matchingExample();
    writeFileSync(join(dir, 'marquee.yaml'), `db: ./tv.db\n${block.text}`);
    const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
    expect(settings.livetv?.matching).toEqual({ scored: true, threshold: 0.85, margin: 0.1, decoration: true });
    const { code, stdout } = await runCli(['import', '--json'], { cwd: dir });
    expect(code).toBe(0);
    const matches = JSON.parse(stdout).livetv.matches as { name: string; guide: string | null; rule: string }[];
    expect(matches.find((m) => m.name === 'UK: BBC One Wales FHD')).toMatchObject({
      guide: 'bbcone.uk',
      rule: 'override',
    });
    expect(matches.find((m) => m.name === '|UK| Dave +1')).toMatchObject({ guide: null, rule: 'override' });
  },

  /** docs/livetv.md's `livetv.matches` entry: the example's import gives it (its source, a full path, named by its file). */
  async 'livetv-matches-json'(block) {
    const dir = matchingExample();
    const { stdout } = await runCli(
      ['import', '--json', '--db', 'tv.db', '--playlist', 'tv.m3u', '--epg', 'guide.xml'],
      {
        cwd: dir,
      },
    );
    const entry = (JSON.parse(stdout).livetv.matches as { line: number; source: string }[]).find((m) => m.line === 10)!;
    expect(entry.source).toBe(join(dir, 'tv.m3u'));
    expect({ ...entry, source: 'tv.m3u' }).toEqual(JSON.parse(block.text));
  },

  /** docs/livetv.md's decoration report: a playlist in a style no rule names reports exactly this. */
  async 'livetv-decoration-json'(block) {
    const dir = folder();
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour;
    const names = ['CBC News Network', 'CTV', 'Global', 'TSN 1', 'Treehouse', 'History'];
    const xml = names.map((n, i) => `<channel id="c${i}.ca"><display-name>${n}</display-name></channel>`);
    for (const [i] of names.entries())
      xml.push(
        `<programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + hour)}" channel="c${i}.ca"><title>x</title></programme>`,
      );
    writeFileSync(join(dir, 'guide.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n${xml.join('\n')}\n</tv>\n`);
    const entries = names.map((n, i) => `◉ CA ${n} ${i % 2 ? '1080' : 'HEVC NFT'}`);
    writeFileSync(
      join(dir, 'tv.m3u'),
      `#EXTM3U\n${entries.map((n, i) => `#EXTINF:-1,${n}\nhttp://s.example/${i}.ts\n`).join('')}`,
    );
    const { code, stdout } = await runCli(
      ['import', '--json', '--db', 'tv.db', '--playlist', 'tv.m3u', '--epg', 'guide.xml'],
      {
        cwd: dir,
      },
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout).livetv.sources[0].decoration).toEqual(JSON.parse(block.text));
  },

  /** docs/livetv.md's `status --matches`: the example's import, then the command prints exactly this. */
  async 'status-matches'(block) {
    const dir = matchingExample();
    const imported = await runCli(['import', '--db', 'tv.db', '--playlist', 'tv.m3u', '--epg', 'guide.xml'], {
      cwd: dir,
    });
    expect(imported.code).toBe(0);
    const status = await runCli(['status', '--db', 'tv.db', '--matches'], { cwd: dir });
    expect(status.code).toBe(0);
    // The playlist's path as the example's folder has it (the decoration line names its source).
    expect(status.stdout.slice(status.stdout.indexOf('matches: ')).replaceAll(`${dir}/`, '')).toBe(block.text);
  },
};

/**
 * The files of docs/livetv.md's matching examples: a guide of eight channels with programmes
 * around now, and a playlist of six channels as panels name them.
 */
function matchingExample(): string {
  const dir = folder();
  const hour = 3_600_000;
  const channels: Record<string, string[]> = {
    'bbcone.uk': ['BBC One'],
    'bbconescotland.uk': ['BBC One Scotland'],
    'itv1.uk': ['ITV 1', 'ITV'],
    'dave.uk': ['Dave'],
    'skysportsnews.uk': ['Sky Sports News'],
    'skysportsmix.uk': ['Sky Sports Mix'],
    'skynews.uk': ['Sky News'],
    'karusel.ru': ['Карусель', 'Carousel'],
    'karuselint.ru': ['Карусель International'],
  };
  const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (const [id, names] of Object.entries(channels)) {
    xml.push(`<channel id="${id}">${names.map((n) => `<display-name>${n}</display-name>`).join('')}</channel>`);
  }
  const start = Math.floor(Date.now() / hour) * hour;
  for (const id of Object.keys(channels)) {
    for (let h = -4; h < 8; h += 2) {
      xml.push(
        `<programme start="${formatXmltvTime(start + h * hour)}" stop="${formatXmltvTime(start + (h + 2) * hour)}" channel="${id}"><title>x</title></programme>`,
      );
    }
  }
  writeFileSync(join(dir, 'guide.xml'), `${[...xml, '</tv>'].join('\n')}\n`);
  const names = [
    'UK: BBC ONE HD',
    'UK: BBC One Wales FHD',
    '|UK| Dave +1',
    'ITV1 HD',
    'UK: Sky Sports News Europe',
    'RU: Karusel Europe FHD',
  ];
  writeFileSync(
    join(dir, 'tv.m3u'),
    `#EXTM3U\n${names.map((n, i) => `#EXTINF:-1,${n}\nhttp://streams.example/${i}.ts\n`).join('')}`,
  );
  return dir;
}

/** A folder where `marquee import` has imported the own files (a marquee.db beside them). */
async function importedFolder(): Promise<string> {
  const dir = ownFiles();
  const run = startShell(dir, 'marquee import --playlist ./tv.m3u --epg ./guide.xml.gz --library ./movies.json');
  expect(await run.exited, run.stderr()).toBe(0);
  return dir;
}

let site: Promise<string> | undefined;
/** `public/` of a folder where the own files were imported and exported. */
function exportedSite(): Promise<string> {
  site ??= (async () => {
    const dir = await importedFolder();
    const run = startShell(dir, 'marquee export --out public');
    expect(await run.exited, run.stderr()).toBe(0);
    return join(dir, 'public');
  })();
  return site;
}

/** Poll `ready` (a server starting up) for up to 20 s. */
async function waitUntil(ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not ready within 20 s');
}

const ALL = documentationFiles().flatMap(extractBlocks);

/** The system tools a block's runner drives (skipped, naming them, where one is missing; CI has them all). */
const BLOCK_TOOLS: Record<string, Tool[]> = {
  'export-nginx': ['nginx'],
  'scaling-nginx': ['nginx'],
  'https-tailscale-cert': ['openssl'],
  'https-caddyfile': ['caddy'],
  'https-caddy': ['caddy', 'curl'],
  'https-own-name': ['openssl'],
};

describe('documentation code blocks', () => {
  it('every block names a runner that exists', () => {
    const missing = ALL.filter((b) => b.name === undefined || !(b.name in RUNNERS)).map(
      (b) => `${b.file}:${b.line} (${b.name ?? 'no <!-- test: NAME --> above it'})`,
    );
    expect(missing).toEqual([]);
  });

  for (const block of ALL) {
    const run = block.name === undefined ? undefined : RUNNERS[block.name];
    const tools = needs(block.name === undefined ? [] : (BLOCK_TOOLS[block.name] ?? []));
    it.runIf(run !== undefined && !tools.skip)(
      tools.title(`${block.file}:${block.line} ${block.name}`),
      { timeout: 120_000 },
      () => run!(block),
    );
  }
});
