/**
 * Hosted mode over real sockets: users configure their own sources through POST /configure,
 * each sees only their own channels with the guide, bad sources are named, install links survive
 * a restart, sets are shared, evicted and imported again, private addresses are refused, and no
 * secret reaches a log line.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInWorker, sourceSetKey } from '../src/hosted/index.js';
import { createRequestHandler, generateKeyRing } from '../src/server/index.js';
import {
  A_CHANNELS,
  B_CHANNELS,
  form,
  type HostedUnderTest,
  type SourceServer,
  startHosted,
  startSourceServer,
} from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { startPanel } from './helpers/xtream-panel.js';

const CATALOG = '/catalog/tv/mq-tv-channels.json';
const JSON_ACCEPT = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
const SECRET = 'S3cretPw9';

let sources: SourceServer;
const dirs: string[] = [];
const running: HostedUnderTest[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-hosted-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  sources = await startSourceServer({ slowMs: 1_500 });
});
afterAll(async () => {
  for (const h of running) await h.close().catch(() => {});
  await sources.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function hosted(dir: string, ring = generateKeyRing(), options: Parameters<typeof startHosted>[2] = {}) {
  // One test address configures many sets: the per-address import limit is tested on its own.
  const h = await startHosted(dir, ring, { sourceOptions: { allowPrivate: true }, importsPerMinute: 600, ...options });
  running.push(h);
  return h;
}

async function configure(h: HostedUnderTest, fields: Record<string, string>) {
  return httpRequest(h.url, '/configure', { method: 'POST', headers: JSON_ACCEPT, body: form(fields) });
}

/** The path of an install link's resource. */
const under = (manifestUrl: string, path: string) => new URL(manifestUrl).pathname.replace(/\/manifest\.json$/, path);

describe('hosted mode', () => {
  const ring = generateKeyRing();
  let dir: string;
  let h: HostedUnderTest;
  let linkA: string;
  let linkB: string;

  beforeAll(async () => {
    dir = folder();
    h = await hosted(dir, ring);
  });

  it('serves a configurable manifest that requires configuration', async () => {
    const manifest = (await httpRequest(h.url, '/manifest.json')).json();
    expect(manifest.behaviorHints).toMatchObject({ configurable: true, configurationRequired: true });
    expect(manifest.config.map((f: { key: string }) => f.key)).toEqual([
      'playlist',
      'epg',
      'xtreamUrl',
      'xtreamUser',
      'xtreamPass',
    ]);
    expect(manifest.config.find((f: { key: string }) => f.key === 'xtreamPass').type).toBe('password');
  });

  it('two users configure through POST /configure and each sees only their own channels with the guide', async () => {
    const [a, b] = await Promise.all([
      configure(h, {
        playlist: `http://user:${SECRET}@${sources.url.slice(7)}/a.m3u?token=${SECRET}`,
        epg: `${sources.url}/guide.xml`,
      }),
      configure(h, { playlist: `${sources.url}/b.m3u`, epg: `${sources.url}/guide.xml` }),
    ]);
    expect(a.status, a.text()).toBe(200);
    expect(b.status, b.text()).toBe(200);
    expect(a.json().summary).toEqual({ channels: 3, programmes: 12, movies: 0, series: 0 });
    expect(b.json().summary).toEqual({ channels: 2, programmes: 8, movies: 0, series: 0 });
    linkA = a.json().manifestUrl;
    linkB = b.json().manifestUrl;
    expect(linkA).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\.[^/]+\/manifest\.json$/);
    expect(linkA).not.toContain(SECRET);

    const manifestA = (await httpRequest(h.url, new URL(linkA).pathname)).json();
    expect(manifestA.behaviorHints.configurationRequired).toBeUndefined();
    expect(manifestA.catalogs[0].id).toBe('mq-tv-channels');

    const catalogA = (await httpRequest(h.url, under(linkA, CATALOG))).json();
    const catalogB = (await httpRequest(h.url, under(linkB, CATALOG))).json();
    expect(catalogA.metas.map((m: { name: string }) => m.name).sort()).toEqual([...A_CHANNELS].sort());
    expect(catalogB.metas.map((m: { name: string }) => m.name).sort()).toEqual([...B_CHANNELS].sort());

    const idA = catalogA.metas[0].id as string;
    const meta = await httpRequest(h.url, under(linkA, `/meta/tv/${encodeURIComponent(idA)}.json`));
    expect(meta.status).toBe(200);
    expect(meta.json().meta.videos.length).toBeGreaterThan(0);
    expect(meta.json().meta.videos[0].title).toMatch(/^a\d show \d$/);
    // Another user's link never reaches that channel.
    const leak = await httpRequest(h.url, under(linkB, `/meta/tv/${encodeURIComponent(idA)}.json`));
    expect(leak.status).toBe(404);
  });

  it('names the playlist that answers an HTML page (4xx)', async () => {
    const bad = await configure(h, { playlist: `${sources.url}/page.html` });
    expect(bad.status).toBe(422);
    expect(bad.json().error.code).toBeTruthy();
    expect(bad.json().error.message).toMatch(/^playlist: /);
    expect(bad.json().error.message).toMatch(/HTML/i);
  });

  it('refuses fields that are not sources (400)', async () => {
    const bad = await configure(h, { playlist: 'file:///etc/passwd' });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(bad.json().error.message).toMatch(/playlist: must be an http\(s\) URL/);
    const none = await configure(h, { epg: `${sources.url}/guide.xml` });
    expect(none.status).toBe(400);
  });

  it('answers 404 to a token that does not decrypt', async () => {
    const forged = linkA.replace(/\/v1\.([^.]+)\.([^/]{8})/, '/v1.$1.AAAAAAAA');
    expect((await httpRequest(h.url, new URL(forged).pathname)).status).toBe(404);
    expect((await httpRequest(h.url, under(forged, CATALOG))).status).toBe(404);
    const otherRing = linkA.replace(/\/v1\.[^.]+\./, '/v1.kother.');
    expect((await httpRequest(h.url, under(otherRing, CATALOG))).status).toBe(404);
  });

  it('keeps no secret in a log line', () => {
    const all = h.logs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain('/a.m3u');
  });

  it('keeps every install link working after a restart, without importing again', async () => {
    await h.close();
    running.splice(running.indexOf(h), 1);
    const before = sources.hits.get('/b.m3u') ?? 0;
    h = await hosted(dir, ring);
    const catalogA = await httpRequest(h.url, under(linkA, CATALOG));
    const catalogB = await httpRequest(h.url, under(linkB, CATALOG));
    expect(catalogA.status).toBe(200);
    expect(catalogA.json().metas).toHaveLength(3);
    expect(catalogB.json().metas).toHaveLength(2);
    expect(sources.hits.get('/b.m3u') ?? 0).toBe(before);
    // The HTML playlist's set, refused, left nothing: no record, no file.
    const sets = h.service.list();
    expect(sets).toHaveLength(2);
    expect(sets.every((s) => s.importedAt !== undefined && s.lastImport?.outcome === 'imported')).toBe(true);
    const html = sourceSetKey({ playlist: `${sources.url}/page.html` });
    expect(readdirSync(dir).filter((name) => name.startsWith(html))).toEqual([]);
  });
});

describe('hosted configure page', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  it('shows a person the progress, then the install link and the summary', async () => {
    const h = await hosted(folder(), generateKeyRing(), { waitMs: 200 });
    const posted = await httpRequest(h.url, '/configure', {
      method: 'POST',
      headers: FORM,
      body: form({ playlist: `${sources.url}/slow.m3u?page=1`, epg: `${sources.url}/guide.xml` }),
    });
    expect(posted.status).toBe(202);
    expect(posted.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(posted.text()).toMatch(/Importing your sources/);
    const refresh = /^2; url=(\S+)$/.exec(String(posted.headers.refresh));
    expect(refresh).not.toBeNull();
    const progressPath = new URL(refresh![1]!).pathname;
    let page = '';
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const answer = await httpRequest(h.url, progressPath);
      page = answer.text();
      if (answer.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(page).toContain('3 channels, 3 with a guide');
    // Plain HTTP on this machine: Stremio Web and the personal address to paste, no stremio:// link.
    expect(page).toMatch(/Open in Stremio Web/);
    expect(page).toMatch(/value="http:\/\/127\.0\.0\.1:\d+\/v1\.[^"]+\/manifest\.json"/);
    expect(page).not.toMatch(/stremio:\/\//);
  });

  it('refuses a set whose guide fails, as the JSON form does, and says why, after the progress page', async () => {
    // Issue 48: past the page's wait, its reloads joined the import loosely and the set was kept,
    // then shown "Ready to install" with no word of the failed guide.
    const h = await hosted(folder(), generateKeyRing(), { waitMs: 200 });
    const fields = { playlist: `${sources.url}/slow.m3u?failing-guide=1`, epg: `${sources.url}/missing.xml` };
    const posted = await httpRequest(h.url, '/configure', { method: 'POST', headers: FORM, body: form(fields) });
    expect(posted.status).toBe(202);
    const progressPath = new URL(/^2; url=(\S+)$/.exec(String(posted.headers.refresh))![1]!).pathname;
    let answer = await httpRequest(h.url, progressPath);
    const deadline = Date.now() + 10_000;
    while (answer.status === 202 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      answer = await httpRequest(h.url, progressPath);
    }
    expect(answer.status).toBe(422);
    const page = answer.text();
    expect(page).not.toMatch(/Ready to install|manifest\.json/);
    // The cause and what to do, next to the guide's field (issue 46's wording for hosted users).
    expect(page).toMatch(
      /Guide \(XMLTV URL, optional\)<\/a> \S*missing\.xml was not found on its server \(HTTP 404\): check the address/,
    );
    expect(h.service.list()).toHaveLength(0);
    // Asked again (the page reloaded, the link opened later): the same answer, no import started.
    const hits = sources.hits.get('/slow.m3u?failing-guide=1');
    const again = await httpRequest(h.url, progressPath);
    expect(again.status).toBe(422);
    expect(again.text()).toMatch(/\S*missing\.xml was not found on its server \(HTTP 404\)/);
    expect(sources.hits.get('/slow.m3u?failing-guide=1')).toBe(hits);
    // The JSON form refuses the same set the same way.
    const json = await configure(h, fields);
    expect(json.status).toBe(422);
    expect(json.json().error.message).toMatch(/^epg: \S*missing\.xml was not found on its server \(HTTP 404\)/);
    expect(h.service.list()).toHaveLength(0);
  });

  it('escapes what was typed and names the problem next to its field', async () => {
    const h = await hosted(folder());
    const answer = await httpRequest(h.url, '/configure', {
      method: 'POST',
      headers: FORM,
      body: form({ playlist: '<script>alert(1)</script>' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.text()).not.toContain('<script>alert(1)');
    expect(answer.text()).toContain('&lt;script&gt;');
    expect(answer.text()).toMatch(/must be an http\(s\) URL/);
  });
});

describe('hosted answers name no file of the server', () => {
  it('whatever the folder is called: a hosted.dir with a space in its path', async () => {
    // Issue 48: a failure naming the set's files reached the 422 answer; the path with a space was
    // cut at the space, and its end was shown.
    const dir = join(folder(), 'my marquee sets');
    const h = await hosted(dir);
    const playlist = `${sources.url}/a.m3u?paths=1`;
    const key = h.service.keyOf({ playlist });
    // The set's copies folder cannot be made (a file is in its place): the import fails naming it.
    // (A refused set's files are removed: the file is put back for each request.)
    const block = () => writeFileSync(join(dir, `${key}.db.sources`), 'not a folder');
    block();
    const answers = [await configure(h, { playlist })];
    block();
    answers.push(
      await httpRequest(h.url, '/configure', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ playlist }),
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      const text = answer.text();
      expect(text).not.toContain(dir);
      expect(text).not.toMatch(/marquee sets|\.db\.sources|\/tmp\//);
    }
    expect(answers[0]!.json().error.message).toMatch(/^playlist: /);
  });
});

describe('hosted lifecycle', () => {
  it('shares one import between users with the same sources', async () => {
    const h = await hosted(folder());
    const fields = { playlist: `${sources.url}/a.m3u?shared=1` };
    const answers = await Promise.all([configure(h, fields), configure(h, fields), configure(h, fields)]);
    for (const a of answers) expect(a.status).toBe(200);
    expect(sources.hits.get('/a.m3u?shared=1')).toBe(1);
    expect(h.service.list()).toHaveLength(1);
    // Each user has a token of their own; they name the same set.
    expect(new Set(answers.map((a) => a.json().manifestUrl)).size).toBe(3);
  });

  it('answers an empty page with max-age=30 while a set imports past the wait, then its data', async () => {
    const ring = generateKeyRing();
    const h = await hosted(folder(), ring, { waitMs: 200 });
    const token = h.service.codec.encode({ playlist: `${sources.url}/slow.m3u` });
    const first = await httpRequest(h.url, `/${encodeURIComponent(token)}${CATALOG}`);
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ metas: [] });
    expect(first.headers['cache-control']).toBe('max-age=30');
    expect(String(first.headers['cache-control'])).not.toMatch(/stale/);
    const manifest = await httpRequest(h.url, `/${encodeURIComponent(token)}/manifest.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers['cache-control']).toBe('max-age=30');
    // The import goes on; once done, the same link answers with the channels.
    const deadline = Date.now() + 10_000;
    let metas: unknown[] = [];
    while (Date.now() < deadline && metas.length === 0) {
      await new Promise((r) => setTimeout(r, 200));
      metas = (await httpRequest(h.url, `/${encodeURIComponent(token)}${CATALOG}`)).json().metas;
    }
    expect(metas).toHaveLength(3);
  });

  it('runs at most concurrentImports imports at once, the rest queued', async () => {
    let active = 0;
    let most = 0;
    const h = await hosted(folder(), generateKeyRing(), {
      concurrentImports: 2,
      // The real import, counted.
      runImport: async (file, set, options) => {
        most = Math.max(most, ++active);
        try {
          return await importInWorker(file, set, options);
        } finally {
          active--;
        }
      },
    });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => configure(h, { playlist: `${sources.url}/slow.m3u?queue=${i}` })),
    );
    for (const a of answers) expect(a.status).toBe(200);
    expect(most).toBe(2);
    expect(h.service.list()).toHaveLength(5);
  });

  it('refreshes a set on use once it is older than the refresh interval, serving its data meanwhile', async () => {
    const h = await hosted(folder(), generateKeyRing(), { refreshMs: 300 });
    const path = '/a.m3u?refresh=1';
    const configured = await configure(h, { playlist: `${sources.url}${path}` });
    expect(sources.hits.get(path)).toBe(1);
    const catalog = under(configured.json().manifestUrl, CATALOG);
    expect((await httpRequest(h.url, catalog)).json().metas).toHaveLength(3);
    expect(sources.hits.get(path)).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    const during = await httpRequest(h.url, catalog);
    expect(during.json().metas).toHaveLength(3);
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (sources.hits.get(path) ?? 0) < 2) await new Promise((r) => setTimeout(r, 50));
    expect(sources.hits.get(path)).toBe(2);
  });

  it('imports an Xtream account: live channels, films and series, the password in no log line', async () => {
    const panel = await startPanel({ live: 12, movies: 7, series: 3, password: 'Xtr3amPassw0rd' });
    try {
      const h = await hosted(folder());
      const answer = await configure(h, {
        xtreamUrl: panel.url,
        xtreamUser: panel.state.username,
        xtreamPass: panel.state.password,
      });
      expect(answer.status, answer.text()).toBe(200);
      expect(answer.json().summary).toMatchObject({ channels: 12, movies: 7, series: 3 });
      const manifest = (await httpRequest(h.url, new URL(answer.json().manifestUrl).pathname)).json();
      expect(manifest.types).toEqual(expect.arrayContaining(['tv', 'movie', 'series']));
      const wrong = await configure(h, { xtreamUrl: panel.url, xtreamUser: panel.state.username, xtreamPass: 'nope' });
      expect(wrong.status).toBe(422);
      expect(wrong.json().error.message).toMatch(/^xtreamUrl: /);
      expect(h.logs.join('\n')).not.toContain('Xtr3amPassw0rd');
      expect(wrong.text()).not.toContain('nope');
    } finally {
      await panel.close();
    }
  });

  it('evicts the least recently used set beyond maxSourceSets and imports it again on use', async () => {
    const dir = folder();
    const clock = { now: Date.now() };
    const h = await hosted(dir, generateKeyRing(), { maxSourceSets: 2, now: () => clock.now });
    const one = await configure(h, { playlist: `${sources.url}/a.m3u?lru=1` });
    await configure(h, { playlist: `${sources.url}/b.m3u?lru=2` });
    // An hour later, using the first again makes the second the least recently used, and no
    // longer within hosted.minKeepMinutes.
    clock.now += 61 * 60_000;
    await httpRequest(h.url, under(one.json().manifestUrl, CATALOG));
    const third = await configure(h, { playlist: `${sources.url}/b.m3u?lru=3` });
    expect(third.status).toBe(200);
    const keys = h.service.list().map((s) => s.key);
    expect(keys).toHaveLength(2);
    const second = sourceSetKey({ playlist: `${sources.url}/b.m3u?lru=2` });
    expect(keys).not.toContain(second);
    expect(existsSync(join(dir, `${second}.db`))).toBe(false);
    expect(keys).toContain(sourceSetKey({ playlist: `${sources.url}/a.m3u?lru=1` }));
  });

  it('builds a page asked by many at once a single time, also when it is too large for the response cache', async () => {
    let built = 0;
    const h = await hosted(folder(), generateKeyRing(), {
      // A response cache too small for any page: every request of a page is a miss.
      handlerFor: (addon) =>
        createRequestHandler(
          () => {
            const inner = addon();
            return {
              ...inner,
              // A page that takes a while to build, as a large guide page does.
              handle: async (request) => {
                built++;
                await new Promise((r) => setTimeout(r, 200));
                return inner.handle(request);
              },
            };
          },
          { responseCache: { maxBytes: 1024 } },
        ),
    });
    const configured = await configure(h, {
      playlist: `${sources.url}/a.m3u?crowd=1`,
      epg: `${sources.url}/guide.xml`,
    });
    const path = under(configured.json().manifestUrl, CATALOG);
    const crowd = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        httpRequest(h.url, path, { headers: i % 2 ? { 'accept-encoding': 'br' } : {} }),
      ),
    );
    expect(crowd.every((r) => r.status === 200 && r.json().metas.length === 3)).toBe(true);
    // A few may come after the first answer went out (each is then a miss of its own), never one build each.
    expect(built).toBeGreaterThanOrEqual(1);
    expect(built).toBeLessThan(10);
  });

  it('evicts beyond the disk budget', async () => {
    const dir = folder();
    const ring = generateKeyRing();
    const clock = { now: Date.now() };
    let h = await hosted(dir, ring, { now: () => clock.now });
    await configure(h, { playlist: `${sources.url}/a.m3u?disk=1` });
    const bytes = h.service.list()[0]!.bytes!;
    expect(bytes).toBeGreaterThan(0);
    await h.close();
    running.splice(running.indexOf(h), 1);
    // A budget of one set and a half: the second set, an hour later, takes the first one's place.
    h = await hosted(dir, ring, { now: () => clock.now, diskBudgetBytes: Math.round(bytes * 1.5) });
    clock.now += 61 * 60_000;
    expect((await configure(h, { playlist: `${sources.url}/a.m3u?disk=2` })).status).toBe(200);
    expect(h.service.list().map((s) => s.key)).toEqual([sourceSetKey({ playlist: `${sources.url}/a.m3u?disk=2` })]);
  });

  it('refuses private addresses without --allow-private-sources', async () => {
    const h = await hosted(folder(), generateKeyRing(), { sourceOptions: { allowPrivate: false } });
    const refused = await configure(h, { playlist: `${sources.url}/a.m3u?private=1` });
    expect(refused.status).toBe(422);
    expect(refused.json().error.message).toMatch(/private or local address/);
    expect(sources.hits.get('/a.m3u?private=1')).toBeUndefined();
    // An Xtream account on this machine is refused the same way, before the panel is asked anything.
    const panel = await startPanel({ live: 3 });
    try {
      const account = await configure(h, {
        xtreamUrl: panel.url,
        xtreamUser: panel.state.username,
        xtreamPass: panel.state.password,
      });
      expect(account.status).toBe(422);
      expect(account.json().error.message).toMatch(/^xtreamUrl: .*private or local address/);
      expect(panel.asked).toEqual([]);
    } finally {
      await panel.close();
    }
  });

  it('limits the imports one address may start through the configure form', async () => {
    const h = await hosted(folder(), generateKeyRing(), { importsPerMinute: 2 });
    const first = await configure(h, { playlist: `${sources.url}/a.m3u?rate=1` });
    const second = await configure(h, { playlist: `${sources.url}/a.m3u?rate=2` });
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.json().error.code).toBe('RATE_LIMITED');
    expect(sources.hits.get('/a.m3u?rate=2')).toBeUndefined();
  });
});
