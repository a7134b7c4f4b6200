import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, runCheck } from '../src/checker/index.js';
import { CLIENT_FIXTURES, type ClientFixture, type Reply } from './fixtures/checker/client-rules.js';
import { GOOD_HEADERS, serveTiny, type Reply as TinyReply, type TinyServer } from './fixtures/checker/tiny-addon.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

/**
 * Differential tests: every fixture of test/fixtures/checker/client-rules.ts is served by one
 * small add-on, then read by the real client (stremio-core-web 0.62.1) and checked by
 * `marquee check`. Where the client loses something (refuses the manifest, drops the catalog's
 * extras or the catalog, the item, the stream, fails the meta page or the request), the checker
 * must report an error of the fixture's rule; where the client keeps everything, no error at all.
 */

const ADDON_ID = 'org.test.client-rules';
const MANIFEST: Record<string, unknown> = {
  id: ADDON_ID,
  version: '1.0.0',
  name: 'Client rules',
  description: 'One fixture at a time',
  resources: ['catalog', 'meta', 'stream'],
  types: ['movie'],
  idPrefixes: ['pb:'],
  catalogs: [{ type: 'movie', id: 'c', name: 'C', extra: [{ name: 'skip' }, { name: 'search' }] }],
};
const OK_META = { id: 'pb:0', type: 'movie', name: 'Film 0' };
const OK_STREAM = { url: 'https://v.example.org/ok.mp4' };
const film = (i: number) => ({ id: `pb:${i}`, type: 'movie', name: `Film ${i}` });

function merge(base: Record<string, unknown>, patch: unknown): Record<string, unknown> {
  const out = { ...base, ...(patch as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) if (v === undefined) delete out[k];
  return out;
}

function manifestOf(f: ClientFixture): Record<string, unknown> {
  if (f.kind === 'manifest') return merge(MANIFEST, f.value);
  if (f.kind === 'catalog') {
    const catalog = merge((MANIFEST.catalogs as Array<Record<string, unknown>>)[0]!, f.value);
    return { ...MANIFEST, catalogs: [catalog] };
  }
  return MANIFEST;
}

function reply(r: Reply): TinyReply {
  return r.raw !== undefined
    ? { status: r.status ?? 200, raw: r.raw, headers: GOOD_HEADERS }
    : { status: r.status ?? 200, body: r.body };
}

/** The add-on for one fixture: a clean one except where the fixture goes. */
function route(f: ClientFixture) {
  return (path: string): TinyReply | undefined => {
    if (path === '/manifest.json') return { body: manifestOf(f) };
    const feed = path.match(/^\/catalog\/movie\/c(?:\/(.*))?\.json$/);
    if (feed) {
      const extra = decodeURIComponent(feed[1] ?? '');
      if (extra.startsWith('search=')) return f.kind === 'search' ? reply(f.value as Reply) : { body: { metas: [] } };
      const skip = Number(/skip=(\d+)/.exec(extra)?.[1] ?? 0);
      if (f.kind === 'feed' && skip === 0 && extra === '') return reply(f.value as Reply);
      if (f.kind === 'page2')
        return skip === 0 ? { body: { metas: [0, 1, 2, 3, 4].map(film) } } : reply(f.value as Reply);
      const page = f.kind === 'preview' ? [OK_META, f.value] : [OK_META];
      return { body: { metas: skip === 0 ? page : [] } };
    }
    if (path === '/meta/movie/pb%3A0.json') {
      if (f.kind === 'meta') return { body: f.value };
      if (f.kind === 'video') return { body: { meta: { ...OK_META, videos: [f.value] } } };
      return { body: { meta: { ...OK_META, behaviorHints: { defaultVideoId: 'pb:0' } } } };
    }
    if (path === '/stream/movie/pb%3A0.json') {
      if (f.kind === 'streams') return reply(f.value as Reply);
      return { body: { streams: f.kind === 'stream' ? [OK_STREAM, f.value] : [OK_STREAM] } };
    }
    if (path.startsWith('/stream/')) return { body: { streams: [] } };
    return undefined;
  };
}

/** What the real client loses over the fixture: true when it refuses, drops or fails something. */
async function clientLoses(client: StremioClient, f: ClientFixture, transportUrl: string): Promise<boolean> {
  const details = await client.loadAddonDetails(transportUrl);
  if (f.kind === 'manifest') return details.error !== null;
  expect(details.error).toBeNull();
  const installed = await client.installAddon(transportUrl);
  switch (f.kind) {
    case 'catalog': {
      const catalog = installed.manifest.catalogs[0]!;
      const raw = catalog as unknown as { extra?: unknown[] | null; extraSupported?: unknown[] };
      const extrasDropped = (raw.extra ?? raw.extraSupported ?? []).length === 0;
      client.dispatch({ action: 'Load', args: { model: 'CatalogsWithExtra', args: { extra: [] } } }, 'board');
      client.dispatch({ action: 'Load', args: { model: 'CatalogWithFilters', args: null } }, 'discover');
      type Rows = { catalogs: Array<{ addon?: { manifest: { id: string } }; id?: string }> };
      const ours = (rows: Rows['catalogs']) => rows.filter((r) => JSON.stringify(r).includes(ADDON_ID)).length;
      const board = ours(client.getState<Rows>('board').catalogs);
      const discover = ours(client.getState<{ selectable: Rows }>('discover').selectable.catalogs);
      return extrasDropped || (board === 0 && discover === 0);
    }
    case 'preview':
      return (await client.loadCatalog({ transportUrl, type: 'movie', id: 'c' })).items.length < 2;
    case 'feed':
      return (await client.loadCatalog({ transportUrl, type: 'movie', id: 'c' })).error !== null;
    case 'page2': {
      const whole = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'c' });
      return whole.items.length < 5 || whole.error !== null;
    }
    case 'search': {
      const rows = await client.search('a(b', { addonId: ADDON_ID });
      return rows.some((r) => r.error !== null);
    }
    case 'meta':
    case 'video':
      return (await client.loadMeta({ transportUrl, type: 'movie', id: 'pb:0', videoId: null })).metaError !== null;
    case 'stream':
      return (await client.loadMeta({ transportUrl, type: 'movie', id: 'pb:0' })).streams.length < 2;
    case 'streams': {
      const { streamGroups } = await client.loadMeta({ transportUrl, type: 'movie', id: 'pb:0' });
      return streamGroups.some((g) => g.error !== null && !g.error.includes('EmptyContent'));
    }
  }
}

describe.each(CLIENT_FIXTURES)('$rule: $case', (fixture) => {
  let server: TinyServer;
  let report: CheckReport;
  let lost: boolean;

  beforeAll(async () => {
    server = await serveTiny(route(fixture));
    const transportUrl = `${server.url}/manifest.json`;
    const client = await createStremioClient();
    try {
      lost = await clientLoses(client, fixture, transportUrl);
    } finally {
      client.close();
    }
    report = await runCheck(transportUrl, { rateLimit: 1000, sampleSize: 1 });
  });
  afterAll(() => server.close());

  it(`the real client ${fixture.lost ? 'loses something' : 'keeps everything'}`, () => {
    expect(lost).toBe(fixture.lost);
  });

  it(fixture.lost ? 'the checker reports an error of this rule' : 'the checker reports no error', () => {
    const all = report.checks.flatMap((c) => c.findings);
    const errors = all.filter((f) => f.severity === 'error');
    if (fixture.lost) {
      expect(errors.map((f) => f.rule)).toContain(fixture.rule);
      expect(report.ok).toBe(false);
    } else {
      expect(errors).toEqual([]);
      expect(report.ok).toBe(true);
      if (!fixture.rule.startsWith('spec.')) {
        expect(all.filter((f) => f.severity === 'warning').map((f) => f.rule)).toContain(fixture.rule);
      }
    }
    expect(report.complete).toBe(true);
  });
});

describe('docs/checker.md', () => {
  it('lists every rule that has a client fixture', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../docs/checker.md', import.meta.url), 'utf8');
    const missing = [...new Set(CLIENT_FIXTURES.map((f) => f.rule))].filter((rule) => !doc.includes(`\`${rule}\``));
    expect(missing).toEqual([]);
  });
});
