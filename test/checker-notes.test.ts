/**
 * What `marquee check` says where a first week of use found it misleading:
 * - an add-on that requires configuration (a hosted instance's base manifest) is checked as far
 *   as the client goes (manifest, configure page), with a note that its resources need a
 *   configured address, and no error for their 404s;
 * - every option a note names ("raise maxGenres") is a flag of `marquee check`, and the note names it;
 * - `poster: ""` is explained by what the real client does with it (asked here: it keeps the item
 *   and reads "" as no poster);
 * - Cache-Control directives no cache knows are a note naming the one most likely meant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CheckReport, DEFAULT_OPTIONS, type Finding, OPTION_FLAGS, runCheck } from '../src/checker/index.js';
import { generateKeyRing } from '../src/server/index.js';
import { GOOD_HEADERS, serveTiny, type TinyServer } from './fixtures/checker/tiny-addon.js';
import { runCli } from './helpers/cli.js';
import { startHosted } from './helpers/hosted.js';
import { createStremioClient } from './helpers/stremio-client.js';

const dirs: string[] = [];
const servers: TinyServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const all = (report: CheckReport): Finding[] => report.checks.flatMap((c) => c.findings);
const FAST = { rateLimit: 1000 } as const;

const MANIFEST = {
  id: 'org.test.notes',
  version: '1.0.0',
  name: 'Notes',
  description: 'd',
  resources: ['catalog', 'meta'],
  types: ['movie'],
  idPrefixes: ['nt:'],
  catalogs: [
    {
      type: 'movie',
      id: 'c',
      name: 'C',
      extra: [{ name: 'genre', options: ['A', 'B', 'C'] }, { name: 'skip' }],
    },
  ],
};

async function tiny(route: Parameters<typeof serveTiny>[0]): Promise<TinyServer> {
  const server = await serveTiny(route);
  servers.push(server);
  return server;
}

describe('an add-on that requires configuration', () => {
  it("checks a hosted instance's base manifest as far as the client goes, with no error for its resources", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-check-hosted-'));
    dirs.push(dir);
    const hosted = await startHosted(dir, generateKeyRing());
    try {
      const report = await runCheck(`${hosted.url}/manifest.json`, FAST);
      expect(report.totals.errors, JSON.stringify(all(report), null, 1)).toBe(0);
      expect(report.ok).toBe(true);
      expect(report.complete).toBe(true);
      const note = all(report).find((f) => f.rule === 'crawl.configuration-required');
      expect(note?.message).toMatch(
        /^behaviorHints\.configurationRequired is true: the client installs this add-on only from the address its configure page makes/,
      );
      // Only the manifest and the configure page the client opens: no catalog answered 404 to an error.
      expect(report.requests.count).toBeLessThanOrEqual(3);
      expect(report.checks.find((c) => c.id === 'catalog-feed')?.status).toBe('skip');
      const cli = await runCli(['check', `${hosted.url}/manifest.json`, '--rate', '1000'], { cwd: dir });
      expect(cli.code).toBe(0);
      expect(cli.stdout).toMatch(/configurationRequired is true/);
    } finally {
      await hosted.close();
    }
  });

  it('is an error when its configure page is missing: nobody could install it', async () => {
    const manifest = { ...MANIFEST, behaviorHints: { configurable: true, configurationRequired: true } };
    const server = await tiny((path) => (path === '/manifest.json' ? { body: manifest } : undefined));
    const report = await runCheck(`${server.url}/manifest.json`, FAST);
    const error = all(report).find((f) => f.rule === 'configure.page');
    expect(error).toMatchObject({
      severity: 'error',
      path: '/configure',
      message: 'the configure page answers HTTP 404 instead of a page',
    });
    expect(server.requests.some((r) => r.startsWith('/catalog/'))).toBe(false);
  });
});

describe('bounds named in notes', () => {
  it('has a flag for every option a note can name, and the note names the flag', async () => {
    const help = (await runCli(['check', '--help'], { cwd: tmpdir() })).stdout;
    const numeric = Object.entries(DEFAULT_OPTIONS)
      .filter(([, v]) => typeof v === 'number')
      .map(([k]) => k);
    expect(Object.keys(OPTION_FLAGS).sort()).toEqual(numeric.sort());
    for (const flag of Object.values(OPTION_FLAGS)) expect(help).toMatch(new RegExp(`\\s${flag} \\S+ `));

    // Every bound cut short: genres, pages, the request budget, body size, time per answer.
    const page = Array.from({ length: 3 }, (_, i) => ({ id: `nt:${i}`, type: 'movie', name: `Film ${i}` }));
    const server = await tiny((path) => {
      if (path === '/manifest.json') return { body: MANIFEST };
      if (path.startsWith('/catalog/movie/c/genre=C')) return { body: { metas: page }, delayMs: 400 };
      if (path.startsWith('/catalog/')) return { body: { metas: path.includes('skip=') ? page.slice(0, 1) : page } };
      if (path.startsWith('/meta/')) return { raw: 'x'.repeat(5_000), headers: GOOD_HEADERS };
      return undefined;
    });
    const report = await runCheck(`${server.url}/manifest.json`, {
      ...FAST,
      maxGenres: 2,
      maxPages: 1,
      maxBodyBytes: 4_000,
      slowMs: 100,
      timeoutMs: 300,
      maxRequests: 12,
    });
    const messages = all(report).map((f) => f.message);
    console.log(messages);
    const named = messages.filter((m) => Object.keys(OPTION_FLAGS).some((o) => m.includes(o)));
    expect(named.length).toBeGreaterThanOrEqual(4);
    for (const message of named) {
      for (const [option, flag] of Object.entries(OPTION_FLAGS)) {
        if (new RegExp(`\\b${option}\\b`).test(message)) expect(message).toContain(flag);
      }
    }
    expect(messages).toContain(
      '3 genres are declared; the first 2 were requested: raise maxGenres (--max-genres) for all',
    );

    // The flag is taken: `--max-genres 50` is not an unknown option, and raises the bound.
    const cli = await runCli(
      ['check', `${server.url}/manifest.json`, '--max-genres', '50', '--json', '--rate', '1000'],
      {
        cwd: tmpdir(),
      },
    );
    expect(cli.stderr).toBe('');
    expect(
      JSON.parse(cli.stdout)
        .checks.flatMap((c: { findings: Finding[] }) => c.findings)
        .map((f: Finding) => f.message),
    ).not.toContain('3 genres are declared; the first 2 were requested: raise maxGenres (--max-genres) for all');
  });
});

describe('poster: ""', () => {
  it('says what the real client does: it keeps the item and reads "" as no poster', async () => {
    const items = [
      { id: 'nt:1', type: 'movie', name: 'Empty poster', poster: '' },
      { id: 'nt:2', type: 'movie', name: 'Poster', poster: 'https://img.example.org/2.jpg' },
    ];
    const server = await tiny((path) => {
      if (path === '/manifest.json')
        return { body: { ...MANIFEST, catalogs: [{ type: 'movie', id: 'c', name: 'C' }] } };
      if (path === '/catalog/movie/c.json') return { body: { metas: items } };
      if (path === '/meta/movie/nt%3A1.json') return { body: { meta: { ...items[0], background: '' } } };
      if (path.startsWith('/meta/')) return { body: { meta: items[1] } };
      return undefined;
    });
    const transportUrl = `${server.url}/manifest.json`;
    const client = await createStremioClient();
    try {
      await client.installAddon(transportUrl);
      const page = await client.loadCatalog({ transportUrl, type: 'movie', id: 'c' });
      expect(page.items.map((i) => [i.id, (i as { poster?: unknown }).poster])).toEqual([
        ['nt:1', null],
        ['nt:2', 'https://img.example.org/2.jpg'],
      ]);
      const meta = await client.loadMeta({ transportUrl, type: 'movie', id: 'nt:1', videoId: null });
      expect(meta.metaError).toBeNull();
      expect((meta.meta as { background?: unknown } | null)?.background).toBeNull();
    } finally {
      client.close();
    }
    const report = await runCheck(transportUrl, FAST);
    expect(report.totals.errors).toBe(0);
    const feed = all(report).find((f) => f.jsonPath === '$.metas[0].poster');
    expect(feed).toMatchObject({
      severity: 'warning',
      message: 'is "" (empty): leave poster out when there is no image (the spec wants an absolute URL)',
      effect: 'the client keeps the item and reads "" as no poster',
    });
    expect(feed?.message).not.toMatch(/drops/);
    expect(all(report).find((f) => f.jsonPath === '$.meta.background')?.effect).toBe(
      'the client keeps the meta and reads "" as no background',
    );
  });
});

describe('Cache-Control directives no cache knows', () => {
  it('are a note naming the directive most likely meant', async () => {
    const headers = {
      ...GOOD_HEADERS,
      'cache-control': 'max-age=300, staleRevalidate=600, stale-if-eror=60, x-custom',
    };
    const server = await tiny((path) =>
      path === '/manifest.json' ? { body: { ...MANIFEST, catalogs: [], resources: ['meta'] }, headers } : undefined,
    );
    const report = await runCheck(`${server.url}/manifest.json`, { ...FAST, sampleSize: 0 });
    const notes = all(report).filter((f) => f.rule === 'cache.unknown-directive');
    expect(notes.map((n) => [n.severity, n.message]).sort((a, b) => b[1]!.length - a[1]!.length)).toEqual([
      ['info', '"staleRevalidate=600" is not a Cache-Control directive: did you mean stale-while-revalidate=600?'],
      ['info', '"stale-if-eror=60" is not a Cache-Control directive: did you mean stale-if-error=60?'],
      ['info', '"x-custom" is not a Cache-Control directive'],
    ]);
    expect(notes[0]!.effect).toBe(
      'RFC 9111 §5.2.3: caches ignore directives they do not know, so this one has no effect',
    );
  });
});
