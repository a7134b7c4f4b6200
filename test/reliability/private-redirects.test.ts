/**
 * Redirects into private addresses (issue 38). An allow-listed private URL
 * (`sources.allowPrivate: [URL]`) admits that URL only: each hop of a redirect is judged on its
 * own. `marquee check` of an add-on on a public address never follows a redirect to a loopback,
 * private or link-local address (it reports it, having read nothing there); a check that starts
 * at a private address may follow private redirects. Real servers on 127.0.0.1 and 127.0.0.2; a
 * "public" add-on on 127.0.0.1 is played through the checker's `isPrivateAddress` option and the
 * sources' `allowAddress`, both options of the functions only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatReport } from '../../src/checker/format.js';
import { type CheckReport, runCheck } from '../../src/checker/index.js';
import { importLiveTv } from '../../src/livetv/index.js';
import { readSourceText } from '../../src/sources/input/index.js';
import { films, movieAddon, serveTiny, type TinyServer } from '../fixtures/checker/tiny-addon.js';
import { fixture, NOW, type TempStore, tempStore } from '../fixtures/livetv/setup.js';

const SECRET = 'INTERNAL-ADMIN token=abc123';

/** A server on `host` that answers every path with `body` and records what it was asked. */
async function serveOn(
  host: string,
  body: (path: string) => string,
): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const redirect = /^\/go\/(.+)$/.exec(req.url ?? '');
    if (redirect) res.writeHead(302, { location: decodeURIComponent(redirect[1]!) }).end();
    else res.writeHead(200).end(body(req.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
let tiny: TinyServer | undefined;
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await tiny?.close();
  tiny = undefined;
});

describe('an allow-listed private URL admits that URL only', () => {
  let temp: TempStore;
  beforeEach(() => {
    temp = tempStore();
  });
  afterEach(() => temp.cleanup());

  it('a guide a playlist names, allowed, that redirects to another private URL is refused there; listed too, it is read', async () => {
    const guide = readFileSync(fixture('guide.xml'), 'utf8');
    const site = await serveOn('127.0.0.1', (path) =>
      path === '/secret.xml' ? guide.replace('</tv>', `<!-- ${SECRET} --></tv>`) : guide,
    );
    servers.push(site.server);
    const listed = `${site.url}/go/${encodeURIComponent(`${site.url}/secret.xml`)}`;
    const playlist = join(temp.dir, 'named.m3u');
    writeFileSync(
      playlist,
      readFileSync(fixture('channels.m3u'), 'utf8').replace('#EXTM3U', `#EXTM3U url-tvg="${listed}"`),
    );

    const refused = await importLiveTv(temp.store, {
      playlists: [{ location: playlist }],
      now: NOW,
      allowPrivateSources: [listed],
    });
    // The listed URL was asked; where it sent the import was not.
    expect(site.seen).toEqual([new URL(listed).pathname]);
    const report = refused.sources.find((s) => s.kind === 'guide');
    expect(report).toMatchObject({ outcome: 'none', namedBy: playlist });
    expect(report?.message).toContain(
      `(redirected to ${site.url}/secret.xml): 127.0.0.1 is a private or local address`,
    );

    const both = await importLiveTv(temp.store, {
      playlists: [{ location: playlist }],
      now: NOW,
      allowPrivateSources: [listed, `${site.url}/secret.xml`],
    });
    expect(both.sources.find((s) => s.kind === 'guide')).toMatchObject({ outcome: 'imported' });
    expect(site.seen.at(-1)).toBe('/secret.xml');
  });

  it('each hop of one read is judged on its own (the reader, with a public address played by allowAddress)', async () => {
    const lan = await serveOn('127.0.0.1', () => '#EXTM3U\n');
    const other = await serveOn('127.0.0.2', () => '#EXTM3U\n');
    servers.push(lan.server, other.server);
    // 127.0.0.2 plays a public host; 127.0.0.1 stays private, as loopback is.
    const options = { allowAddress: (address: string) => address === '127.0.0.2', retries: 0 };
    const toPublic = `${lan.url}/go/${encodeURIComponent(`${other.url}/list.m3u`)}`;
    const toPrivate = `${lan.url}/go/${encodeURIComponent(`${lan.url}/admin`)}`;
    const fromPublic = `${other.url}/go/${encodeURIComponent(toPrivate)}`;

    const read = await readSourceText(toPublic, { ...options, privateUrls: [toPublic] });
    expect(read.notModified === false && read.text).toBe('#EXTM3U\n');
    await expect(readSourceText(toPrivate, { ...options, privateUrls: [toPrivate] })).rejects.toMatchObject({
      code: 'SOURCE_FORBIDDEN',
      message: expect.stringContaining(`(redirected to ${lan.url}/admin): 127.0.0.1 is a private or local address`),
    });
    // Public, then the listed private URL, then a private one it was not listed for.
    await expect(readSourceText(fromPublic, { ...options, privateUrls: [toPrivate] })).rejects.toMatchObject({
      code: 'SOURCE_FORBIDDEN',
    });
    expect(lan.seen.filter((p) => p === '/admin')).toEqual([]);
  });
});

describe('marquee check never follows a public add-on into a private network', () => {
  /** An add-on whose streams redirect to a server on a private address holding a secret. */
  async function redirectingAddon() {
    const secret = await serveOn('127.0.0.2', () => SECRET);
    servers.push(secret.server);
    tiny = await serveTiny(
      movieAddon(films(3), (path) =>
        path.startsWith('/stream/')
          ? { status: 302, headers: { location: `${secret.url}/secret`, 'access-control-allow-origin': '*' }, raw: '' }
          : undefined,
      ),
    );
    return { secret, manifest: `${tiny.url}/manifest.json` };
  }

  const text = (report: CheckReport) => JSON.stringify(report) + formatReport(report, { color: false, examples: 100 });

  it('reports the redirects of an add-on on a public address and reads nothing there', async () => {
    const { secret, manifest } = await redirectingAddon();
    // 127.0.0.1 (the add-on) plays a public address; every other address is private.
    const report = await runCheck(manifest, { rateLimit: 1000, isPrivateAddress: (a) => a !== '127.0.0.1' });
    expect(secret.seen).toEqual([]);
    const redirects = report.checks.flatMap((c) => c.findings).filter((f) => f.rule === 'http.private-redirect');
    expect(redirects.length).toBeGreaterThan(0);
    expect(redirects[0]).toMatchObject({
      severity: 'error',
      message: expect.stringContaining(
        `HTTP 302 redirects to ${secret.url}/secret, a loopback, private or link-local address: not followed`,
      ),
    });
    expect(text(report)).not.toContain(SECRET);
  });

  it('follows private redirects of a check that starts at a private address', async () => {
    const { secret, manifest } = await redirectingAddon();
    const report = await runCheck(manifest, { rateLimit: 1000 });
    expect(secret.seen.length).toBeGreaterThan(0);
    expect(report.checks.flatMap((c) => c.findings).some((f) => f.rule === 'http.private-redirect')).toBe(false);
  });
});
