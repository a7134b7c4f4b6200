/**
 * The static export on disk: which files a 250-movie add-on with a guide channel becomes, the
 * stored guide horizon, subtitles files, values with `/` and hostile values, bounds, and the
 * folder rules (a foreign folder is refused, a previous export is replaced whole, a failed
 * export leaves the previous one as it was). The real client reads an export in
 * export-real-client.test.ts. One file past 300 lines on purpose: the small add-ons defined
 * here (horizon, tricky values) serve every group.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAddon, EXAMPLE_MOVIES, type ExampleMovie } from '../examples/example-addon.js';
import { createAddon, page } from '../src/addon/index.js';
import { exportAddon, MARKER_FILE } from '../src/export/index.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const DAYS = [
  '2026-03-09',
  '2026-03-10',
  '2026-03-11',
  '2026-03-12',
  '2026-03-13',
  '2026-03-14',
  '2026-03-15',
  '2026-03-16',
  '2026-03-17',
];

function movies(count: number): ExampleMovie[] {
  return Array.from({ length: count }, (_, i) => ({
    ...EXAMPLE_MOVIES[i % EXAMPLE_MOVIES.length]!,
    id: `mqex:movie:gen-${i}`,
    name: `Generated Film ${String(i).padStart(3, '0')}`,
  }));
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'marquee-export-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const readJson = async (dir: string, file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));

describe('exporting the example add-on', () => {
  const MOVIES = movies(250);
  const adventure = MOVIES.filter((m) => m.genres.includes('Action & Adventure'));
  let out: string;
  let report: Awaited<ReturnType<typeof exportAddon>>;

  beforeAll(async () => {
    out = join(root, 'example');
    report = await exportAddon(createExampleAddon({ movies: MOVIES, now: () => NOW }), out, { now: () => NOW });
  });

  it('drops the search extra from the manifest and says so', async () => {
    const manifest = await readJson(out, 'manifest.json');
    expect(manifest.catalogs[0].extra.map((e: { name: string }) => e.name)).toEqual(['genre', 'skip']);
    expect(manifest.catalogs.map((c: { id: string }) => c.id)).toEqual(['mqex-movies', 'mqex-channels']);
    expect(report.manifestChanges).toEqual([expect.stringMatching(/movie\/mqex-movies: the search extra is dropped/)]);
  });

  it('writes the feed at every running skip the client asks, the closing empty page included', async () => {
    const dir = join(out, 'catalog/movie/mqex-movies');
    const ids = [
      ...(await readJson(out, 'catalog/movie/mqex-movies.json')).metas,
      ...(await readJson(dir, 'skip=100.json')).metas,
      ...(await readJson(dir, 'skip=200.json')).metas,
    ].map((m: { id: string }) => m.id);
    expect(ids).toEqual(MOVIES.map((m) => m.id));
    expect(await readJson(dir, 'skip=250.json')).toEqual({ metas: [] });
    expect(existsSync(join(dir, 'skip=300.json'))).toBe(false);
  });

  it('names genre files by the decoded value, in both extra orders for the next pages', async () => {
    const dir = join(out, 'catalog/movie/mqex-movies');
    const first = await readJson(dir, 'genre=Action & Adventure.json');
    expect(first.metas).toHaveLength(100);
    const skipFirst = await readJson(dir, 'skip=100&genre=Action & Adventure.json');
    expect(skipFirst).toEqual(await readJson(dir, 'genre=Action & Adventure&skip=100.json'));
    expect(skipFirst.metas.map((m: { id: string }) => m.id)).toEqual(adventure.slice(100).map((m) => m.id));
    const end = `skip=${adventure.length}&genre=Action & Adventure.json`;
    expect(await readJson(dir, end)).toEqual({ metas: [] });
    const comedies = MOVIES.filter((m) => m.genres.includes('Comédie'));
    expect((await readJson(dir, 'genre=Comédie.json')).metas).toHaveLength(comedies.length);
    expect(await readJson(dir, `skip=${comedies.length}&genre=Comédie.json`)).toEqual({ metas: [] });
  });

  it('writes every guide day of the window with its skip steps, date first', async () => {
    const dir = join(out, 'catalog/tv/mqex-channels');
    for (const day of DAYS) {
      const rows = (await readJson(dir, `date=${day}.json`)).metasDetailed;
      expect(rows.map((r: { id: string }) => r.id)).toEqual(['mqex:tv:classics']);
      expect(rows[0].videos.length).toBeGreaterThan(10);
      expect(await readJson(dir, `date=${day}&skip=1.json`)).toEqual({ metasDetailed: [] });
      expect(existsSync(join(dir, `skip=1&date=${day}.json`))).toBe(true);
    }
    expect(existsSync(join(dir, 'date=2026-03-08.json'))).toBe(false);
    expect(report.guideDays).toEqual(DAYS);
    expect((await readJson(out, 'catalog/tv/mqex-channels.json')).metas[0].id).toBe('mqex:tv:classics');
  });

  it('writes the meta and streams of every item under its decoded id', async () => {
    const meta = await readJson(out, 'meta/movie/mqex:movie:gen-7.json');
    expect(meta.meta).toMatchObject({ id: 'mqex:movie:gen-7', name: 'Generated Film 007' });
    const streams = await readJson(out, 'stream/movie/mqex:movie:gen-7.json');
    expect(streams.streams[0].url).toBe(MOVIES[7]!.stream);
    expect((await readJson(out, 'meta/tv/mqex:tv:classics.json')).meta.videos.length).toBeGreaterThan(0);
    expect((await readJson(out, 'stream/tv/mqex:tv:classics.json')).streams).toHaveLength(1);
    expect(report).toMatchObject({ items: 251, metas: 251, streams: 251, subtitles: 0, truncated: [], warnings: [] });
  });

  it('counts what it wrote, and leaves the marker, landing page and host files', async () => {
    const movieCatalog = report.catalogs.find((c) => c.id === 'mqex-movies')!;
    expect(movieCatalog).toMatchObject({ lists: 7, items: 250 });
    const listed = await readdir(out, { recursive: true, withFileTypes: true });
    const files = listed.filter((e) => e.isFile());
    expect(files).toHaveLength(report.files);
    const sizes = await Promise.all(files.map(async (f) => (await readFile(join(f.parentPath, f.name))).length));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(report.bytes);
    const marker = await readJson(out, MARKER_FILE);
    expect(marker).toMatchObject({ generator: 'marquee export', exportedAt: '2026-03-10T12:00:00.000Z' });
    expect(marker.addon).toEqual({ id: 'org.marquee.example', version: '1.0.0', name: 'Marquee Example' });
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Marquee Example');
    expect(await readFile(join(out, '_headers'), 'utf8')).toContain('Access-Control-Allow-Origin: *');
    expect(existsSync(join(out, '.nojekyll'))).toBe(true);
  });
});

/** A guide that holds `stored` days from today: the rest answer no channels. */
function horizonAddon(stored: readonly string[]) {
  const channel = { id: 'hz:one', type: 'tv', name: 'One', behaviorHints: { isLive: true } };
  return createAddon({
    manifest: {
      id: 'org.example.horizon',
      version: '1.0.0',
      name: 'Horizon',
      description: 'A guide with a stored horizon',
      resources: ['catalog', 'meta', 'stream'],
      types: ['tv'],
      idPrefixes: ['hz:'],
      catalogs: [{ type: 'tv', id: 'guide', name: 'Guide', extra: [{ name: 'date' }, { name: 'skip' }] }],
      behaviorHints: { epgProvider: true },
    },
    handlers: {
      catalog: ({ extra }) => {
        if (extra.date === undefined) return { metas: page([channel], extra.skip) };
        const start = `${extra.date}T10:00:00.000Z`;
        const row = {
          ...channel,
          behaviorHints: { isLive: true, hasScheduledVideos: true },
          videos: [
            {
              id: `hz:one:epg:${start}`,
              title: 'News',
              released: start,
              startTime: start,
              endTime: `${extra.date}T11:00:00.000Z`,
            },
          ],
        };
        return { metasDetailed: stored.includes(extra.date) ? page([row], extra.skip) : [] };
      },
      meta: ({ id }) => (id === channel.id ? { meta: channel } : null),
      stream: () => ({ streams: [{ url: 'https://example.org/one.m3u8', name: 'One' }] }),
    },
  });
}

describe('the guide horizon', () => {
  it('stops at the first empty day in each direction and writes that empty day', async () => {
    const out = join(root, 'horizon');
    const report = await exportAddon(horizonAddon(['2026-03-10', '2026-03-11', '2026-03-12']), out, {
      now: () => NOW,
      guideDays: { from: -3, to: 10 },
    });
    const dir = join(out, 'catalog/tv/guide');
    const days = (await readdir(dir)).filter((f) => /^date=[\d-]+\.json$/.test(f)).sort();
    expect(days).toEqual([
      'date=2026-03-09.json',
      'date=2026-03-10.json',
      'date=2026-03-11.json',
      'date=2026-03-12.json',
      'date=2026-03-13.json',
    ]);
    expect(await readJson(dir, 'date=2026-03-13.json')).toEqual({ metasDetailed: [] });
    expect(await readJson(dir, 'date=2026-03-09.json')).toEqual({ metasDetailed: [] });
    expect(report.guideDays).toEqual(['2026-03-10', '2026-03-11', '2026-03-12']);
  });

  it('refuses a window outside the bounds', async () => {
    await expect(
      exportAddon(horizonAddon([]), join(root, 'never'), { guideDays: { from: -100, to: 1 } }),
    ).rejects.toMatchObject({ code: 'INVALID_SETTINGS', message: expect.stringContaining('from=-100') });
    expect(existsSync(join(root, 'never'))).toBe(false);
  });
});

/** Movies whose ids and genres carry `/` and hostile values, with subtitles hints on one stream. */
function trickyAddon(onMeta: (id: string) => void = () => {}) {
  const items = [
    { id: 'tk:plain', genre: 'AC/DC' },
    { id: 'tk:a/b', genre: 'AC/DC' },
    { id: '../../../escape', genre: '../../escape' },
  ].map((x) => ({ id: x.id, type: 'movie', name: x.id, genres: [x.genre] }));
  return createAddon({
    manifest: {
      id: 'org.example.tricky',
      version: '1.0.0',
      name: 'Tricky <values>',
      description: 'Values that need care on disk',
      resources: ['catalog', 'meta', 'stream', 'subtitles'],
      types: ['movie'],
      catalogs: [
        { type: 'movie', id: 'all', name: 'All', extra: [{ name: 'genre', options: ['AC/DC', '../../escape'] }] },
        { type: 'movie', id: 'find', name: 'Find', extra: [{ name: 'search', isRequired: true }] },
      ],
    },
    handlers: {
      catalog: ({ extra }) => ({
        metas: items.filter((i) => extra.genre === undefined || i.genres.includes(extra.genre)),
      }),
      meta: ({ id }) => {
        onMeta(id);
        const item = items.find((i) => i.id === id);
        return item ? { meta: item } : null;
      },
      stream: ({ id }) => ({
        streams: [
          { url: `https://example.org/${encodeURIComponent(id)}.mp4`, name: 'Plain' },
          {
            url: `https://example.org/${encodeURIComponent(id)}-hd.mp4`,
            name: 'HD',
            behaviorHints: { videoHash: '8e245d9679d31e12', videoSize: 1048576, filename: 'film hd.mp4' },
          },
        ],
      }),
      subtitles: ({ id, extra }) => ({
        subtitles: [{ id: `${id}-en`, url: 'https://example.org/en.srt', lang: extra.videoHash ? 'eng' : 'fra' }],
      }),
    },
  });
}

describe('values that need care on disk', () => {
  let out: string;
  let report: Awaited<ReturnType<typeof exportAddon>>;
  beforeAll(async () => {
    out = join(root, 'tricky', 'export');
    report = await exportAddon(trickyAddon(), out, { now: () => NOW });
  });

  it('writes a value with "/" as nested folders, the path a decoding server looks up', async () => {
    expect((await readJson(out, 'catalog/movie/all/genre=AC/DC.json')).metas).toHaveLength(2);
    expect((await readJson(out, 'meta/movie/tk:a/b.json')).meta.id).toBe('tk:a/b');
  });

  it('refuses hostile values with a warning naming them, and writes nothing outside the folder', async () => {
    expect(report.warnings).toEqual([
      { path: '/catalog/movie/all/genre=..%2F..%2Fescape.json', message: 'not exported: it makes a ".." path segment' },
      { path: '/meta/movie/..%2F..%2F..%2Fescape.json', message: 'not exported: it makes a ".." path segment' },
      { path: '/stream/movie/..%2F..%2F..%2Fescape.json', message: 'not exported: it makes a ".." path segment' },
      { path: '/subtitles/movie/..%2F..%2F..%2Fescape.json', message: 'not exported: it makes a ".." path segment' },
    ]);
    expect(await readdir(join(root, 'tricky'))).toEqual(['export']);
    expect(existsSync(join(root, 'escape.json'))).toBe(false);
  });

  it('drops a search-only catalog and the escaped landing page shows the name', async () => {
    const manifest = await readJson(out, 'manifest.json');
    expect(manifest.catalogs.map((c: { id: string }) => c.id)).toEqual(['all']);
    expect(report.manifestChanges).toEqual([expect.stringContaining('catalog movie/find is dropped')]);
    const landing = await readFile(join(out, 'index.html'), 'utf8');
    expect(landing).toContain('Tricky &lt;values&gt;');
    expect(landing).not.toContain('<values>');
  });

  it('writes subtitles without extras and with the hints a stream declares, in the player order', async () => {
    expect(await readJson(out, 'subtitles/movie/tk:plain.json')).toEqual({
      subtitles: [{ id: 'tk:plain-en', url: 'https://example.org/en.srt', lang: 'fra' }],
    });
    const hinted = 'subtitles/movie/tk:plain/videoHash=8e245d9679d31e12&videoSize=1048576&filename=film hd.mp4.json';
    expect((await readJson(out, hinted)).subtitles[0].lang).toBe('eng');
    expect(report.subtitles).toBe(4);
  });
});

describe('bounds', () => {
  it('stops a list at maxPages and reports it', async () => {
    const report = await exportAddon(createExampleAddon({ movies: movies(250), now: () => NOW }), join(root, 'pages'), {
      now: () => NOW,
      maxPages: 2,
      guideDays: { from: 0, to: 0 },
    });
    expect(report.truncated).toContain(
      'catalog movie/mqex-movies: stopped after 2 pages (maxPages); skip=200 and later are missing',
    );
    expect(existsSync(join(root, 'pages/catalog/movie/mqex-movies/skip=100.json'))).toBe(true);
    expect(existsSync(join(root, 'pages/catalog/movie/mqex-movies/skip=200.json'))).toBe(false);
  });

  it('stops the whole export at maxFiles and reports it', async () => {
    const report = await exportAddon(createExampleAddon({ now: () => NOW }), join(root, 'files'), {
      now: () => NOW,
      maxFiles: 12,
    });
    expect(report.files).toBe(13);
    expect(report.truncated).toEqual([
      'the export stopped early: the file limit (12) was reached; later files are missing',
    ]);
  });
});

describe('the export folder', () => {
  it('refuses a non-empty folder that is not an export, even with force, naming its first file', async () => {
    const out = join(root, 'mine');
    await mkdir(out);
    await writeFile(join(out, 'notes.txt'), 'my notes');
    await writeFile(join(out, 'budget.ods'), 'x');
    for (const force of [false, true]) {
      await expect(exportAddon(horizonAddon([]), out, { now: () => NOW, force })).rejects.toMatchObject({
        code: 'INVALID_SETTINGS',
        message: expect.stringContaining(`${out} holds budget.ods and no ${MARKER_FILE}`),
      });
    }
    expect((await readdir(out)).sort()).toEqual(['budget.ods', 'notes.txt']);
    expect((await readdir(root)).filter((n) => n.startsWith('.mine'))).toEqual([]);
  });

  it('replaces a previous export that gained a foreign file only with force, and never one holding a database or key ring', async () => {
    const out = join(root, 'gained');
    await exportAddon(horizonAddon([]), out, { now: () => NOW });
    await writeFile(join(out, 'README.txt'), 'mine');
    await expect(exportAddon(horizonAddon([]), out, { now: () => NOW })).rejects.toMatchObject({
      message: expect.stringContaining('holds a file the previous export did not write: README.txt; not replaced'),
    });
    await exportAddon(horizonAddon([]), out, { now: () => NOW, force: true });
    expect(existsSync(join(out, 'README.txt'))).toBe(false);

    for (const name of ['marquee.db', 'marquee.db.keys.json', 'store']) {
      await writeFile(join(out, name), name === 'store' ? 'SQLite format 3\0 and pages' : '{}');
      await expect(exportAddon(horizonAddon([]), out, { now: () => NOW, force: true })).rejects.toMatchObject({
        message: expect.stringMatching(
          new RegExp(`holds what no export writes and none ever deletes: ${name} \\((a database|a key ring)\\)`),
        ),
      });
      expect(existsSync(join(out, name))).toBe(true);
      await rm(join(out, name));
    }
  });

  it('writes folders and files a static web server can read and only their owner can change (0755 and 0644 less the umask, not 0700)', async () => {
    const out = join(root, 'modes');
    await exportAddon(horizonAddon([]), out, { now: () => NOW });
    const mask = process.umask();
    expect((await stat(out)).mode & 0o777).toBe(0o755 & ~mask);
    expect((await stat(join(out, 'catalog'))).mode & 0o777).toBe(0o755 & ~mask);
    expect((await stat(join(out, 'manifest.json'))).mode & 0o777).toBe(0o644 & ~mask);
    expect((await stat(join(out, MARKER_FILE))).mode & 0o777).toBe(0o644 & ~mask);
  });

  it('refuses a file where the folder should be', async () => {
    const out = join(root, 'a-file');
    await writeFile(out, 'x');
    await expect(exportAddon(horizonAddon([]), out, { force: true })).rejects.toMatchObject({
      code: 'INVALID_SETTINGS',
    });
  });

  it('replaces a previous export whole, with no staging folder left behind', async () => {
    const parent = join(root, 'replace');
    const out = join(parent, 'site');
    await exportAddon(createExampleAddon({ movies: movies(250), now: () => NOW }), out, { now: () => NOW });
    expect(existsSync(join(out, 'catalog/movie/mqex-movies/skip=200.json'))).toBe(true);

    const later = NOW + 86_400_000;
    await exportAddon(createExampleAddon({ movies: movies(120), now: () => later }), out, { now: () => later });
    expect(existsSync(join(out, 'catalog/movie/mqex-movies/skip=200.json'))).toBe(false);
    expect(await readJson(out, 'catalog/movie/mqex-movies/skip=120.json')).toEqual({ metas: [] });
    expect(existsSync(join(out, 'meta/movie/mqex:movie:gen-200.json'))).toBe(false);
    expect((await readJson(out, MARKER_FILE)).exportedAt).toBe('2026-03-11T12:00:00.000Z');
    expect(await readdir(parent)).toEqual(['site']);
  });

  it('leaves the previous export as it was when an export fails midway', async () => {
    const parent = join(root, 'abort');
    const out = join(parent, 'site');
    await exportAddon(trickyAddon(), out, { now: () => NOW });
    const before = await readdir(out, { recursive: true });

    const controller = new AbortController();
    const failing = trickyAddon((id) => {
      if (id === 'tk:a/b') controller.abort(new Error('stopped by the test'));
    });
    await expect(exportAddon(failing, out, { now: () => NOW, signal: controller.signal })).rejects.toThrow(
      'stopped by the test',
    );
    expect(await readdir(out, { recursive: true })).toEqual(before);
    expect(await readdir(parent)).toEqual(['site']);
  });
});
