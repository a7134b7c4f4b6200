/**
 * Hosted mode against one hostile visitor (issue 37), each attack as it was found and then held:
 * a flood of POST /configure from one address, a flood driven through visitors' browsers from
 * another site, a stored password retargeted to another server, set files readable by other
 * users, server paths in answers, a set whose guide fails kept and reported as good, and sets in
 * use evicted to make room. Real sockets on 127.0.0.1, real imports, real files.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import { REGISTRY_FILE, readRegistry, sourceSetKey } from '../src/hosted/index.js';
import { createRequestHandler, createTokenCodec, generateKeyRing, listen } from '../src/server/index.js';
import { runCli } from './helpers/cli.js';
import { form, type HostedUnderTest, type SourceServer, startHosted, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { startPanel } from './helpers/xtream-panel.js';

const CATALOG = '/catalog/tv/mq-tv-channels.json';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_FORM = { accept: 'application/json', ...FORM };

let sources: SourceServer;
const dirs: string[] = [];
const running: HostedUnderTest[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-hostile-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  sources = await startSourceServer();
});
afterAll(async () => {
  for (const h of running) await h.close().catch(() => {});
  await sources.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function hosted(dir: string, options: Parameters<typeof startHosted>[2] = {}) {
  const h = await startHosted(dir, generateKeyRing(), { sourceOptions: { allowPrivate: true }, ...options });
  running.push(h);
  return h;
}

/** POST /configure as the client at `address` (the hosted handler trusts X-Forwarded-For in these tests). */
function configure(h: HostedUnderTest, fields: Record<string, string>, address: string, headers = {}) {
  return httpRequest(h.url, '/configure', {
    method: 'POST',
    headers: { ...JSON_FORM, 'x-forwarded-for': address, ...headers },
    body: form(fields),
  });
}

const under = (manifestUrl: string, path: string) => new URL(manifestUrl).pathname.replace(/\/manifest\.json$/, path);
/** Log records written since index `from`, parsed. */
const logsSince = (h: HostedUnderTest, from: number) =>
  h.logs.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);

/** `count` POSTs over `connections` kept-alive sockets; resolves with the count of each status. */
async function flood(
  h: HostedUnderTest,
  count: number,
  connections: number,
  body: (i: number) => string,
  headers: Record<string, string>,
): Promise<{ statuses: Map<number, number>; first429?: string; ms: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(h.url);
  const statuses = new Map<number, number>();
  let first429: string | undefined;
  let next = 0;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const text = body(i);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/configure',
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
            if (res.statusCode === 429 && first429 === undefined) first429 = Buffer.concat(chunks).toString();
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) await one(next++);
    }),
  );
  agent.destroy();
  return { statuses, ...(first429 !== undefined ? { first429 } : {}), ms: performance.now() - started };
}

describe('a flood of POST /configure from one address', () => {
  it('leaves no trace: three users configured before it are served from their sets, sets.json holds them alone, and the log says it in a few lines', async () => {
    const dir = folder();
    const h = await hosted(dir, { maxSourceSets: 5, trustProxy: true });
    const users: Record<string, string>[] = [
      { playlist: `${sources.url}/a.m3u?user=1`, epg: `${sources.url}/guide.xml` },
      { playlist: `${sources.url}/b.m3u?user=2`, epg: `${sources.url}/guide.xml` },
      { playlist: `${sources.url}/a.m3u?user=3` },
    ];
    const links: string[] = [];
    for (const [i, fields] of users.entries()) {
      const answer = await configure(h, fields, `198.51.100.${i + 1}`);
      expect(answer.status, answer.text()).toBe(200);
      links.push(answer.json().manifestUrl);
    }
    const hits = () =>
      users.map((u) => {
        const url = new URL(u.playlist!);
        return sources.hits.get(url.pathname + url.search) ?? 0;
      });
    const before = hits();
    expect(before).toEqual([1, 1, 1]);
    const logged = h.logs.length;

    // 20,000 requests, each naming sources of its own, from one address; at most 90 s of them.
    const result = await flood(h, 20_000, 32, (i) => form({ playlist: `${sources.url}/flood/${i}.m3u` }), {
      ...JSON_FORM,
      'x-forwarded-for': '203.0.113.66',
    });
    expect(result.ms).toBeLessThan(90_000);
    // Two imports started (the address's burst), both failed (the flood's URLs answer 404); the rest were refused.
    expect(result.statuses.get(429)).toBe(19_998);
    expect(result.statuses.get(422)).toBe(2);
    const afterFlood = h.logs.length;
    expect(JSON.parse(result.first429!).error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^too many configurations from your address: try again in \d+ s$/),
    });

    // The three users are still served from their sets, with no import again.
    for (const [i, link] of links.entries()) {
      const catalog = await httpRequest(h.url, under(link, CATALOG));
      expect(catalog.status).toBe(200);
      expect(catalog.json().metas).toHaveLength(i === 1 ? 2 : 3);
    }
    expect(hits()).toEqual(before);
    // A real user after the flood evicts nobody.
    const fourth = await configure(h, { playlist: `${sources.url}/b.m3u?user=4` }, '198.51.100.4');
    expect(fourth.status).toBe(200);
    expect(h.service.list()).toHaveLength(4);

    // sets.json (written within a second) holds the four sets alone; the folder holds nothing of the flood.
    await new Promise((r) => setTimeout(r, 1_200));
    const recorded = readRegistry(dir);
    expect(recorded.length).toBeLessThanOrEqual(5);
    expect(recorded.map((s) => s.key).sort()).toEqual(
      h.service
        .list()
        .map((s) => s.key)
        .sort(),
    );
    const setFiles = readdirSync(dir).filter((name) => /^[0-9a-f]{32}\.db$/.test(name));
    expect(setFiles.sort()).toEqual(recorded.map((s) => `${s.key}.db`).sort());

    // The log: the two imports and their failures, and one line counting the refused requests.
    await h.close();
    running.splice(running.indexOf(h), 1);
    // The two imports, their failures and their answers (the requests refused have no line of their own)...
    const flooded = h.logs.slice(logged, afterFlood).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(flooded.length, JSON.stringify(flooded, null, 1)).toBeLessThanOrEqual(6);
    // ...and one line counting the requests refused, written when the minute ends (here: at close).
    const refused = logsSince(h, afterFlood).filter((r) => r.message === 'refused requests');
    expect(refused).toEqual([expect.objectContaining({ count: 19_998, reasons: { 'rate-limit': 19_998 } })]);
  }, 150_000);

  it('never evicts a set used within hosted.minKeepMinutes for a new one: the new one is refused before anything is fetched', async () => {
    const dir = folder();
    const clock = { now: Date.now() };
    const h = await hosted(dir, { maxSourceSets: 2, trustProxy: true, now: () => clock.now });
    await configure(h, { playlist: `${sources.url}/a.m3u?keep=1` }, '198.51.100.10');
    await configure(h, { playlist: `${sources.url}/b.m3u?keep=2` }, '198.51.100.11');
    clock.now += 30 * 60_000;
    const third = await configure(h, { playlist: `${sources.url}/a.m3u?keep=3` }, '198.51.100.12');
    expect(third.status).toBe(503);
    expect(third.json().error.message).toMatch(/as many source sets as it may/);
    expect(sources.hits.get('/a.m3u?keep=3')).toBeUndefined();
    expect(h.service.list()).toHaveLength(2);
    // An hour after their last use they may go: the least recently used makes room.
    clock.now += 31 * 60_000;
    const later = await configure(h, { playlist: `${sources.url}/a.m3u?keep=3` }, '198.51.100.12');
    expect(later.status).toBe(200);
    expect(
      h.service
        .list()
        .map((s) => s.key)
        .sort(),
    ).toEqual(
      [
        sourceSetKey({ playlist: `${sources.url}/b.m3u?keep=2` }),
        sourceSetKey({ playlist: `${sources.url}/a.m3u?keep=3` }),
      ].sort(),
    );
  });

  it('counts one IPv6 /64 as one address: a visitor cannot take a fresh address for each request', async () => {
    const h = await hosted(folder(), { trustProxy: true });
    const statuses = [];
    for (let i = 1; i <= 5; i++) {
      const answer = await configure(
        h,
        { playlist: `${sources.url}/flood/v6-${i}.m3u` },
        `2001:db8:7:7::${i.toString(16)}`,
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([422, 422, 429, 429, 429]);
    expect(sources.hits.get('/flood/v6-3.m3u')).toBeUndefined();
    // Another /64 is another visitor.
    expect((await configure(h, { playlist: `${sources.url}/flood/v6-6.m3u` }, '2001:db8:7:8::1')).status).toBe(422);
  });

  it('names the set, not the address, when the set is the one asked too often', async () => {
    const h = await hosted(folder(), { trustProxy: true, importsPerMinute: 2 });
    const fields = { playlist: `${sources.url}/flood/set-limit.m3u` };
    // Different addresses, the same failing sources: the set's own limit answers.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await configure(h, fields, `198.51.100.${20 + i}`));
    expect(answers.map((a) => a.status)).toEqual([422, 429, 429]);
    expect(answers[1]!.json().error.message).toMatch(/^too many imports of these sources: try again in \d+ s$/);
  });
});

describe('a form posted from another site', () => {
  it('is refused with 403 and fetches nothing; the same site, and scripts without Origin, are served', async () => {
    const dir = folder();
    const h = await hosted(dir, { trustProxy: true, importsPerMinute: 60 });
    const own = h.url;
    const fields = (n: number) => ({ playlist: `${sources.url}/a.m3u?site=${n}` });
    for (const [n, headers] of [
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page.html' },
      { origin: 'null' },
      { origin: own.replace('127.0.0.1', 'localhost') },
    ].entries()) {
      const answer = await configure(h, fields(n), '198.51.100.30', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.json().error.code).toBe('CROSS_SITE_REQUEST');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(sources.hits.get(`/a.m3u?site=${n}`)).toBeUndefined();
    }
    expect(h.service.list()).toEqual([]);
    // The instance's own page (its Origin, or its Referer alone), and a script sending neither.
    expect((await configure(h, fields(10), '198.51.100.31', { origin: own })).status).toBe(200);
    expect((await configure(h, fields(11), '198.51.100.32', { referer: `${own}/configure` })).status).toBe(200);
    expect((await configure(h, fields(12), '198.51.100.33')).status).toBe(200);
    await h.close();
    running.splice(running.indexOf(h), 1);
    expect(h.logs.map((l) => JSON.parse(l)).find((r) => r.message === 'refused requests')).toMatchObject({
      count: 4,
      reasons: { 'cross-site': 4 },
    });
  });

  it('is refused by a plain configurable add-on too', async () => {
    const addon = createAddon({
      manifest: {
        id: 'org.test.cross-site',
        version: '1.0.0',
        name: 'Cross site',
        description: '',
        resources: ['catalog'],
        types: ['movie'],
        catalogs: [{ type: 'movie', id: 'c', name: 'C' }],
        config: [{ key: 'name', type: 'text', title: 'Name' }],
        behaviorHints: { configurable: true },
      },
      configCodec: createTokenCodec(generateKeyRing(), 'org.test.cross-site'),
      handlers: { catalog: () => ({ metas: [] }) },
    });
    const server = await listen(createRequestHandler(addon), { port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const post = (headers: Record<string, string>) =>
        httpRequest(base, '/configure', { method: 'POST', headers: { ...FORM, ...headers }, body: 'cfg_name=x' });
      expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
      expect((await post({ origin: base })).status).toBe(200);
      expect((await post({})).status).toBe(200);
    } finally {
      await server.close(1_000);
    }
  });
});

describe('a stored password', () => {
  it('is never sent to a server the form names instead of its own', async () => {
    const victim = await startPanel({ live: 4, movies: 0, series: 0, username: 'alice', password: 'Vict1mPass' });
    const attacker = await startPanel({ live: 4, movies: 0, series: 0, username: 'alice', password: 'Vict1mPass' });
    try {
      const h = await hosted(folder(), { trustProxy: true, importsPerMinute: 60 });
      const first = await configure(
        h,
        { xtreamUrl: victim.url, xtreamUser: 'alice', xtreamPass: 'Vict1mPass' },
        '198.51.100.40',
      );
      expect(first.status, first.text()).toBe(200);
      const token = decodeURIComponent(new URL(first.json().manifestUrl).pathname.split('/')[1]!);
      const retarget = (fields: Record<string, string>) =>
        httpRequest(h.url, '/configure', {
          method: 'POST',
          headers: { ...JSON_FORM, 'x-forwarded-for': '203.0.113.40' },
          body: `${form(fields)}&previous=${encodeURIComponent(token)}`,
        });
      // Another server with an empty password field: no password, not the previous one.
      const other = await retarget({ xtreamUrl: attacker.url, xtreamUser: 'alice', xtreamPass: '' });
      expect(other.status).toBe(400);
      expect(other.json().error.message).toMatch(/xtreamPass: is needed with an Xtream server URL/);
      // Another user on the same server: the same.
      const user = await retarget({ xtreamUrl: victim.url, xtreamUser: 'mallory', xtreamPass: '' });
      expect(user.status).toBe(400);
      expect(attacker.asked).toEqual([]);
      // The same account, another field changed: the stored password is kept, as the form promises.
      const asked = victim.asked.length;
      const same = await retarget({
        xtreamUrl: victim.url,
        xtreamUser: 'alice',
        xtreamPass: '',
        playlist: `${sources.url}/a.m3u?same-account=1`,
      });
      expect(same.status, same.text()).toBe(200);
      expect(victim.asked.length).toBeGreaterThan(asked);
    } finally {
      await victim.close();
      await attacker.close();
    }
  });
});

describe('the set files', () => {
  it('are 0600 in a 0700 folder that was 0755, the correction logged', async () => {
    const dir = join(folder(), 'hosted');
    mkdirSync(dir, { mode: 0o755 });
    const h = await hosted(dir, { trustProxy: true });
    const answer = await configure(
      h,
      { playlist: `${sources.url}/a.m3u?modes=1`, epg: `${sources.url}/guide.xml` },
      '198.51.100.50',
    );
    expect(answer.status).toBe(200);
    const key = sourceSetKey({ playlist: `${sources.url}/a.m3u?modes=1`, epg: `${sources.url}/guide.xml` });
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(dir)).toBe(0o700);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true });
    expect(files.some((f) => f.name === `${key}.db`)).toBe(true);
    expect(files.some((f) => f.parentPath.endsWith(`${key}.db.sources`))).toBe(true);
    for (const f of files) {
      const path = join(f.parentPath, f.name);
      expect(mode(path), path).toBe(f.isDirectory() ? 0o700 : 0o600);
    }
    await new Promise((r) => setTimeout(r, 1_200));
    expect(mode(join(dir, REGISTRY_FILE))).toBe(0o600);
    expect(h.logs.map((l) => JSON.parse(l)).find((r) => /made private/.test(String(r.message)))).toMatchObject({
      level: 'warn',
      mode: '0755',
    });
  });
});

describe('answers to users', () => {
  it('name no server path when an import fails in the store', async () => {
    const dir = folder();
    const h = await hosted(dir, { trustProxy: true });
    const fields = { playlist: `${sources.url}/a.m3u?path=1` };
    // The set's store cannot be created: a folder is in its place.
    mkdirSync(join(dir, `${sourceSetKey(fields)}.db`));
    const answer = await configure(h, fields, '198.51.100.60');
    expect(answer.status).toBe(422);
    expect(answer.text()).not.toContain(dir);
    expect(answer.text()).not.toMatch(/\/tmp\//);
    expect(answer.json().error.message).toMatch(/EISDIR/);
    // The log may name it.
    expect(h.service.list()).toEqual([]);
  });
});

describe('a set whose guide fails', () => {
  it('is refused whole through the configure form, leaving nothing; from an install link it is kept, and status exits 1', async () => {
    const dir = folder();
    const h = await hosted(dir, { trustProxy: true });
    const fields = { playlist: `${sources.url}/a.m3u?guide=404`, epg: `${sources.url}/missing-guide.xml` };
    const answer = await configure(h, fields, '198.51.100.70');
    expect(answer.status).toBe(422);
    expect(answer.json().error.message).toMatch(/^epg: /);
    expect(h.service.list()).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.startsWith(sourceSetKey(fields)))).toEqual([]);

    // An install link's request (a set evicted, or imported on another replica) keeps what it serves.
    const token = h.service.codec.encode(fields);
    let metas: unknown[] = [];
    for (let i = 0; i < 50 && metas.length === 0; i++) {
      metas = (await httpRequest(h.url, `/${encodeURIComponent(token)}${CATALOG}`)).json().metas;
      if (metas.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(metas).toHaveLength(3);
    await h.close();
    running.splice(running.indexOf(h), 1);
    const settings = join(dir, 'marquee.json');
    writeFileSync(settings, JSON.stringify({ db: join(dir, 'none.db'), hosted: { dir } }));
    const status = await runCli(['status', '--config', settings], { cwd: dir });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^KEPT [0-9a-f]{32} /m);
    expect(status.stdout).toMatch(/last import: .*imported: epg: /);
    const json = JSON.parse((await runCli(['status', '--json', '--config', settings], { cwd: dir })).stdout);
    expect(json.ok).toBe(false);
    expect(json.hosted.sets[0]).toMatchObject({ ok: false, lastImport: { outcome: 'imported' } });
    expect(readFileSync(join(dir, REGISTRY_FILE), 'utf8')).not.toContain('missing-guide');
  });
});
