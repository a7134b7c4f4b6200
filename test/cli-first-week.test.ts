/**
 * Messages a new user meets in a first week, tried as they would try them:
 * - a playlist naming 101 guides on a host that cannot be reached: one line with the count and
 *   the first of them, "failed, never imported" (not "kept": nothing is kept), each guide still
 *   judged on its own (--json, status);
 * - a missing playlist, guide and library file, worded alike; no "read … 0 records" for a file
 *   that was never read;
 * - a failed first import leaves neither the database nor its copies folder behind;
 * - a UTF-16LE playlist and library file without a byte-order mark are read;
 * - live streams are named after `addon.name`; counts of one are singular;
 * - the hosted front page shows no empty catalog heading.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAddon, importAll } from '../src/cli/app.js';
import { generateKeyRing } from '../src/server/index.js';
import { openStore } from '../src/store/index.js';
import { runCli } from './helpers/cli.js';
import { excerpt } from './helpers/corpus.js';
import { startHosted } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';

const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-first-week-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ONE_CHANNEL =
  '#EXTM3U\n#EXTINF:-1 tvg-id="one.tv" group-title="News",One TV\nhttps://live.example.org/one.m3u8\n';

describe('many guides on a host that cannot be reached', () => {
  it('are one line with the count and the first, "failed, never imported", each still judged on its own', async () => {
    const dir = folder();
    // `.invalid` never resolves (RFC 6761): the host is offline for every guide the playlist names.
    const guides = Array.from({ length: 101 }, (_, i) => `http://epg.marquee-test.invalid/guide_${i}.xml.gz`);
    writeFileSync(join(dir, 'tv.m3u'), `#EXTM3U x-tvg-url="${guides.join(', ')}"\n${ONE_CHANNEL.slice(8)}`);
    const result = await runCli(['import', '--playlist', 'tv.m3u'], { cwd: dir });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^live TV: 1 channel \(1 stream, 1 group\), 0 programmes; 0 channels with a guide, 1 without; /,
    );
    const bad = lines.filter((l) => /^ {2}(kept|failed, never imported):/.test(l));
    expect(bad).toEqual([
      `  failed, never imported: 101 guides: getaddrinfo ENOTFOUND epg.marquee-test.invalid (first: ${guides[0]}; --json and marquee status list each)`,
    ]);
    expect(result.stdout).not.toMatch(/kept:/);

    const json = await runCli(['import', '--playlist', 'tv.m3u', '--json'], { cwd: dir });
    const sources = JSON.parse(json.stdout).livetv.sources.filter((s: { kind: string }) => s.kind === 'guide');
    expect(sources.map((s: { location: string }) => s.location)).toEqual(guides);
    for (const s of sources)
      expect(s).toMatchObject({ outcome: 'none', reason: 'failed: getaddrinfo ENOTFOUND epg.marquee-test.invalid' });

    const status = await runCli(['status'], { cwd: dir });
    expect(status.stdout.match(/^NONE guide /gm)).toHaveLength(101);
    expect(status.stdout).not.toMatch(/kept since/);
    expect(status.stdout.match(/^ +failing since: /gm)).toHaveLength(101);
  });
});

describe('missing files', () => {
  it('are worded alike for a playlist, a guide and a library file, with no progress line for what was never read', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'tv.m3u'), ONE_CHANNEL);
    writeFileSync(join(dir, 'films.json'), '[{"type":"movie","name":"Sintel"}]');
    const run = await runCli(
      [
        'import',
        '--playlist',
        'tv.m3u',
        '--playlist',
        'gone.m3u',
        '--epg',
        'gone.xml',
        '--library',
        'gone.json',
        '--library',
        'films.json',
      ],
      { cwd: dir },
    );
    expect(run.stdout).toContain(`  failed, never imported: playlist ${join(dir, 'gone.m3u')}: file not found\n`);
    expect(run.stdout).toContain(`  failed, never imported: guide ${join(dir, 'gone.xml')}: file not found\n`);
    expect(run.stdout).toContain(`  failed, never imported: library ${join(dir, 'gone.json')}: file not found\n`);
    expect(run.stderr).not.toMatch(/library read .*gone\.json/);
    expect(run.stderr).toMatch(/library read .*films\.json/);
    expect(run.code).toBe(1);
  });
});

describe('a failed first import', () => {
  it('leaves nothing behind; an import into an existing database keeps it', async () => {
    const dir = folder();
    const failed = await runCli(['import', '--playlist', 'missing.m3u', '--library', 'missing.json'], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(`nothing was imported: ${join(dir, 'marquee.db')} was not created\n`);
    expect(readdirSync(dir)).toEqual([]);

    // serve's first import as well.
    const served = await runCli(['serve', '--port', '0', '--playlist', 'missing.m3u'], { cwd: dir });
    expect(served.code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);

    writeFileSync(join(dir, 'tv.m3u'), ONE_CHANNEL);
    expect((await runCli(['import', '--playlist', 'tv.m3u'], { cwd: dir })).code).toBe(0);
    const later = await runCli(['import', '--playlist', 'missing.m3u'], { cwd: dir });
    expect(later.code).toBe(1);
    expect(existsSync(join(dir, 'marquee.db'))).toBe(true);
    expect(existsSync(join(dir, 'marquee.db.sources'))).toBe(true);
  });
});

describe('UTF-16 without a byte-order mark', () => {
  it('is read: a real-world playlist and a library file saved as UTF-16LE', async () => {
    const dir = folder();
    const text = readFileSync(excerpt('playlists', 'iptv-org-cl.m3u'), 'utf8');
    writeFileSync(join(dir, 'utf8.m3u'), text);
    writeFileSync(join(dir, 'utf16.m3u'), Buffer.from(text.replace(/^\uFEFF/, ''), 'utf16le'));
    expect(readFileSync(join(dir, 'utf16.m3u'))[0]).not.toBe(0xff);
    const utf8 = JSON.parse(
      (await runCli(['import', '--playlist', 'utf8.m3u', '--db', 'a.db', '--json'], { cwd: dir })).stdout,
    );
    const utf16 = JSON.parse(
      (await runCli(['import', '--playlist', 'utf16.m3u', '--db', 'b.db', '--json'], { cwd: dir })).stdout,
    );
    expect(utf8.livetv.counts.channels).toBeGreaterThan(5);
    expect(utf16.livetv.counts).toEqual(utf8.livetv.counts);

    writeFileSync(join(dir, 'films.json'), Buffer.from('[{"type":"movie","name":"Amélie"}]', 'utf16le'));
    const lib = JSON.parse(
      (await runCli(['import', '--library', 'films.json', '--db', 'c.db', '--json'], { cwd: dir })).stdout,
    );
    expect(lib.library.report.counts.movies).toBe(1);
  });

  it('names the encoding as the likely cause when it is not recognised', async () => {
    const dir = folder();
    // UTF-32: four bytes a character, three of them zero.
    const utf32 = Buffer.alloc(ONE_CHANNEL.length * 4);
    for (let i = 0; i < ONE_CHANNEL.length; i++) utf32.writeUInt32LE(ONE_CHANNEL.charCodeAt(i), i * 4);
    writeFileSync(join(dir, 'tv.m3u'), utf32);
    const result = await runCli(['import', '--playlist', 'tv.m3u'], { cwd: dir });
    expect(result.stdout).toContain('it is likely saved as UTF-16 or UTF-32; save it as UTF-8');
  });
});

describe('names and counts', () => {
  it('names live streams after addon.name', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'tv.m3u'), ONE_CHANNEL);
    const settings = { db: join(dir, 'tv.db'), addon: { name: 'My TV' }, livetv: { playlists: [join(dir, 'tv.m3u')] } };
    const store = openStore(settings.db);
    try {
      await importAll(store, settings);
      const addon = buildAddon(store, settings, join(dir, 'keys.json'));
      const answer = await addon.handle({ resource: 'stream', type: 'tv', id: 'mq-tv:one.tv', extra: [] });
      expect(answer.status).toBe(200);
      const streams = (answer as unknown as { body: { streams: { name: string }[] } }).body.streams;
      expect(streams.map((s) => s.name)).toEqual(['My TV']);
    } finally {
      store.close();
    }
  });

  it('shows no empty catalog heading on the hosted front page', async () => {
    const dir = folder();
    const hosted = await startHosted(dir, generateKeyRing());
    try {
      const page = await httpRequest(hosted.url, '/configure');
      expect(page.status).toBe(200);
      expect(page.text()).not.toMatch(/<h2>Catalogs<\/h2>/);
      expect(page.text()).not.toMatch(/Live TV <span class="hint">\(tv\)<\/span>/);
    } finally {
      await hosted.close();
    }
  });
});
