/**
 * docs/scaling.md run for real: nginx (the block of the page) in front of two `marquee serve
 * --hosted` processes sharing one key ring. One user's requests all reach one replica; when that
 * replica is killed, the other imports the user's sources and answers. Skipped, saying why, when
 * nginx is not installed, and a failure then under CI=true (test/helpers/tools.ts; .ci/run installs it).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setKeySecret, sourceSetKey } from '../src/hosted/index.js';
import { parseKeyRing } from '../src/server/index.js';
import { form, type SourceServer, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { nginxBinary, nginxErrors, scalingBlock, startNginx, writeNginxConfig } from './helpers/nginx.js';
import { freePort } from './helpers/ports.js';
import { ensureBuilt, type ServeChild, startMarquee } from './helpers/serve-process.js';
import { describeWith } from './helpers/tools.js';

const NGINX = nginxBinary();

const CATALOG = 'catalog/tv/mq-tv-channels.json';
const USER_LINE = /"path":"\/\{config\}\//g;

describeWith(['nginx'], 'hosted replicas behind nginx (docs/scaling.md)', () => {
  const children: ChildProcess[] = [];
  let dir: string;
  let sources: SourceServer;
  let nginx: ChildProcess;
  let base: string;
  const replicas: ServeChild[] = [];

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'marquee-nginx-'));
    sources = await startSourceServer();
    const settings = join(dir, 'marquee.json');
    writeFileSync(
      settings,
      JSON.stringify({
        security: { configKeyFile: join(dir, 'keys.json'), trustProxy: true },
        hosted: { enabled: true, waitSeconds: 8, importsPerMinute: 600 },
      }),
    );
    const ports = [await freePort(), await freePort()] as const;
    // One after the other: the first creates the shared key ring, the second reads it.
    for (const [i, port] of ports.entries()) {
      mkdirSync(join(dir, `r${i}`));
      const replica = startMarquee(
        ['serve', '--config', settings, '--db', join(dir, `r${i}`, 'marquee.db'), '--port', String(port)].concat([
          '--allow-private-sources',
          '--log-format',
          'json',
        ]),
        dir,
        children,
      );
      await replica.waitFor(/manifest: +\S+/, 30_000);
      replicas.push(replica);
    }
    const port = await freePort();
    const conf = writeNginxConfig(dir, scalingBlock(), port, ports);
    nginx = startNginx(NGINX!, dir, conf);
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      const up = await httpRequest(base, '/manifest.json').catch(() => undefined);
      if (up?.status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`nginx did not answer: ${nginxErrors(dir)}`);
  }, 90_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sources?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one user on one replica, and moves them to the other when it dies', { timeout: 90_000 }, async () => {
    const lines = (i: number) => (replicas[i]!.output().match(USER_LINE) ?? []).length;
    // Child output arrives a moment after the answer: poll for it.
    const settle = async (done: () => boolean) => {
      for (let i = 0; i < 60 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    // The configure form has no token: nginx spreads the empty hash key round-robin, and the
    // replica that takes the POST imports the sources. Each attempt has sources of its own; take
    // one whose link lands on the replica that imported it, so the other never saw those sources.
    const configures = (i: number) => (replicas[i]!.output().match(/"path":"\/configure"/g) ?? []).length;
    let link = '';
    let home = -1;
    let key = '';
    for (let attempt = 0; attempt < 12 && home === -1; attempt++) {
      const playlist = `${sources.url}/a.m3u?attempt=${attempt}`;
      const posted = [configures(0), configures(1)];
      const answer = await httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ playlist, epg: `${sources.url}/guide.xml` }),
      });
      expect(answer.status, answer.text()).toBe(200);
      await settle(() => configures(0) + configures(1) > posted[0]! + posted[1]!);
      const configuredBy = configures(0) > posted[0]! ? 0 : 1;
      const candidate = new URL(answer.json().manifestUrl).pathname.replace(/manifest\.json$/, '');
      const before = [lines(0), lines(1)];
      // A preflight reaches the link's replica and is logged, but imports nothing.
      const probe = await httpRequest(base, `${candidate}${CATALOG}`, { method: 'OPTIONS' });
      expect(probe.status).toBe(204);
      await settle(() => lines(0) + lines(1) > before[0]! + before[1]!);
      const servedBy = lines(0) > before[0]! ? 0 : 1;
      if (servedBy === configuredBy) {
        link = candidate;
        home = servedBy;
        // The replicas name sets by a hash keyed from their shared key ring.
        const ring = parseKeyRing(readFileSync(join(dir, 'keys.json'), 'utf8'));
        key = sourceSetKey({ playlist, epg: `${sources.url}/guide.xml` }, setKeySecret(ring));
      }
    }
    expect(home, 'no link landed on the replica that imported it in 12 tries').not.toBe(-1);
    const other = 1 - home;
    const importsOf = (i: number) =>
      replicas[i]!.output()
        .split('\n')
        .filter((l) => l.includes('importing a source set') && l.includes(key)).length;
    expect(importsOf(home)).toBe(1);
    expect(importsOf(other)).toBe(0);

    const before = [lines(0), lines(1)];
    for (let i = 0; i < 6; i++) {
      const catalog = await httpRequest(base, `${link}${CATALOG}`);
      expect(catalog.status).toBe(200);
      expect(catalog.json().metas).toHaveLength(3);
      expect((await httpRequest(base, `${link}manifest.json`)).status).toBe(200);
    }
    await settle(() => lines(home) - before[home]! >= 12);
    // Twelve requests, all on one replica.
    expect(lines(home) - before[home]!).toBe(12);
    expect(lines(other) - before[other]!).toBe(0);

    replicas[home]!.process.kill('SIGKILL');
    await replicas[home]!.exited;
    const moved = await httpRequest(base, `${link}${CATALOG}`);
    expect(moved.status, nginxErrors(dir)).toBe(200);
    expect(moved.json().metas).toHaveLength(3);
    // The other replica had never seen these sources: it imported them to answer.
    await settle(() => importsOf(other) === 1);
    expect(importsOf(other)).toBe(1);
    expect(lines(other)).toBeGreaterThan(before[other]!);
  });
});
