/**
 * Add-on catalogs against other add-ons running in the test: one built with our SDK, one a
 * plain HTTP server whose manifest the test changes (valid, broken, unchanged with an ETag).
 * Manifests are fetched at refresh time and cached; an unreachable or invalid one keeps its
 * last good copy.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import { type AddonCatalogConfig, importLibrary, refreshAddonCatalogs } from '../src/library/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { freePort as deadPort } from './helpers/ports.js';
import { type LibraryFixture, libraryFixture } from './library-helpers.js';

let fx: LibraryFixture;
let sdkAddon: RunningServer;
let plain: Server;
let plainUrl: string;
let deadUrl: string;
let plainManifest: Record<string, unknown> | string;
const plainRequests: Array<string | undefined> = [];

const OTHER = {
  id: 'org.example.other',
  version: '2.1.0',
  name: 'Other add-on',
  description: 'Streams for everything',
  resources: ['stream'],
  types: ['movie'],
  idPrefixes: ['tt'],
  catalogs: [],
} as const;

const PLAIN = { ...OTHER, id: 'org.example.plain', name: 'Plain add-on', version: '1.0.0' };

async function listenPlain(): Promise<void> {
  plain = createServer((req, res) => {
    plainRequests.push(req.headers['if-none-match']);
    const body = typeof plainManifest === 'string' ? plainManifest : JSON.stringify(plainManifest);
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/addon/manifest.json`;
}

let catalogs: AddonCatalogConfig[];

beforeAll(async () => {
  fx = libraryFixture();
  await importLibrary(fx.store, { files: [fx.write('library.json', [{ id: 'tt1', type: 'movie', name: 'One' }])] });
  sdkAddon = await listen(
    createRequestHandler(createAddon({ manifest: OTHER, handlers: { stream: () => ({ streams: [] }) } })),
    { port: 0, host: '127.0.0.1' },
  );
  plainManifest = PLAIN;
  await listenPlain();
  deadUrl = `http://127.0.0.1:${await deadPort()}/manifest.json`;
  catalogs = [
    { type: 'movie', id: 'friends', name: 'Friends', addons: [`${sdkAddon.url}/manifest.json`, deadUrl, plainUrl] },
    { type: 'movie', id: 'plain-only', name: 'Plain only', addons: [plainUrl] },
  ];
  await fx.serve({ addonCatalogs: catalogs });
});
afterAll(async () => {
  await fx.close();
  await sdkAddon.close(100);
  await new Promise((resolve) => plain.close(resolve));
});

const refresh = () =>
  refreshAddonCatalogs(fx.store, { addonCatalogs: catalogs }, { timeoutMs: 3_000, fetch: { retries: 0 } });
const transportUrls = (body: { addons: Array<{ transportUrl: string }> }) => body.addons.map((a) => a.transportUrl);

describe('add-on catalogs', () => {
  it('are declared in the manifest with the addon_catalog resource', async () => {
    const { body } = await fx.get('/manifest.json');
    expect(body.addonCatalogs).toEqual([
      { type: 'movie', id: 'friends', name: 'Friends' },
      { type: 'movie', id: 'plain-only', name: 'Plain only' },
    ]);
    expect(body.resources).toContain('addon_catalog');
  });

  it('answer an empty list before the first refresh', async () => {
    expect((await fx.get('/addon_catalog/movie/friends.json')).body).toEqual({ addons: [] });
  });

  it('fetch, validate and cache every manifest; an unreachable one is a warning', async () => {
    const report = await refresh();
    expect(report).toMatchObject({ updated: 2, unchanged: 0, failed: 1 });
    expect(report.warnings).toEqual([
      { source: deadUrl, message: expect.stringMatching(/cannot fetch the manifest: .*the last good copy is kept/) },
    ]);
    const { status, body } = await fx.get('/addon_catalog/movie/friends.json');
    expect(status).toBe(200);
    expect(body.addons).toEqual([
      {
        transportName: 'http',
        transportUrl: `${sdkAddon.url}/manifest.json`,
        manifest: expect.objectContaining(OTHER),
      },
      { transportName: 'http', transportUrl: plainUrl, manifest: expect.objectContaining({ id: 'org.example.plain' }) },
    ]);
    expect(transportUrls((await fx.get('/addon_catalog/movie/plain-only.json')).body)).toEqual([plainUrl]);
    expect((await fx.get('/addon_catalog/movie/nope.json')).status).toBe(404);
  });

  it('ask again with the ETag and keep the copy when the add-on answers 304', async () => {
    plainRequests.length = 0;
    const report = await refresh();
    // Both servers send ETags (our SDK server too); the dead one still fails.
    expect(report).toMatchObject({ updated: 0, unchanged: 2, failed: 1 });
    expect(plainRequests[0]).toMatch(/^".+"$/);
  });

  it('keep the last good copy when an add-on goes away or starts serving an invalid manifest', async () => {
    const before = (await fx.get('/addon_catalog/movie/friends.json')).body;
    await sdkAddon.close(100);
    plainManifest = { ...PLAIN, version: '1.0' };
    const report = await refresh();
    expect(report).toMatchObject({ updated: 0, failed: 3 });
    const byUrl = new Map(report.warnings.map((w) => [w.source, w]));
    expect(byUrl.get(`${sdkAddon.url}/manifest.json`)?.message).toMatch(/cannot fetch the manifest/);
    expect(byUrl.get(plainUrl)).toEqual({
      source: plainUrl,
      field: '$.version',
      message: expect.stringMatching(
        /the manifest is not valid: \$\.version: .*not strict semver.*last good copy is kept/,
      ),
    });
    expect((await fx.get('/addon_catalog/movie/friends.json')).body).toEqual(before);
    const rows = fx.store.addonManifests([plainUrl]);
    expect(rows[0]).toMatchObject({
      manifest: expect.objectContaining({ version: '1.0.0' }),
      error: expect.any(String),
    });

    plainManifest = '{ not json';
    const notJson = await refresh();
    expect(notJson.warnings.find((w) => w.source === plainUrl)?.message).toMatch(/not JSON/);

    plainManifest = { ...PLAIN, version: '1.1.0' };
    await refresh();
    const after = (await fx.get('/addon_catalog/movie/plain-only.json')).body;
    expect(after.addons[0].manifest.version).toBe('1.1.0');
    expect(fx.store.addonManifests([plainUrl])[0]).not.toHaveProperty('error');
  });

  it('refuse configuration that does not name add-on addresses', async () => {
    await expect(
      refreshAddonCatalogs(fx.store, {
        addonCatalogs: [{ type: 'movie', id: 'x', name: 'X', addons: ['http://a.example/'] }],
      }),
    ).rejects.toThrow(/addonCatalogs\[0\]\.addons\[0\]: .*must end in \/manifest\.json/);
    await expect(
      refreshAddonCatalogs(fx.store, {
        addonCatalogs: [{ type: 'movie', id: 'x', name: 'X', addons: ['file:///etc/manifest.json'] }],
      }),
    ).rejects.toThrow(/is not an http\(s\) URL/);
  });
});
