/**
 * Every code block in README.md and docs/*.md runs here, as a reader would run it. A block names
 * its runner in a comment on the line above it (`<!-- test: NAME -->`); a block without one, or
 * naming no runner below, fails the suite, so a new block cannot be left untested. Runners start
 * modules as files of their own and shell lines with `marquee`/`npx marquee`/`npm start` from
 * this checkout (test/docs/blocks.ts), and assert what they answer. Where a block names an
 * address the test cannot reach (a public host), the runner says what it substitutes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettingsFile } from '../src/cli/settings.js';
import { demoGuide, demoPlaylist } from '../src/demo/index.js';
import {
  type Block,
  commandsOf,
  documentationFiles,
  extractBlocks,
  ROOT,
  startModule,
  startShell,
} from './docs/blocks.js';
import { httpRequest } from './helpers/http.js';

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
};

/** A port free now, for a block whose printed links name its public address instead of the port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const ALL = documentationFiles().flatMap(extractBlocks);

describe('documentation code blocks', () => {
  it('every block names a runner that exists', () => {
    const missing = ALL.filter((b) => b.name === undefined || !(b.name in RUNNERS)).map(
      (b) => `${b.file}:${b.line} (${b.name ?? 'no <!-- test: NAME --> above it'})`,
    );
    expect(missing).toEqual([]);
  });

  for (const block of ALL) {
    const run = block.name === undefined ? undefined : RUNNERS[block.name];
    it.runIf(run !== undefined)(`${block.file}:${block.line} ${block.name}`, { timeout: 120_000 }, () => run!(block));
  }
});
