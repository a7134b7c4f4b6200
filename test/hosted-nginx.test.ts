/**
 * docs/scaling.md run for real: nginx (the block of the page) in front of two `marquee serve
 * --hosted` processes sharing one key ring. One user's requests all reach one replica; when that
 * replica is killed, the other imports the user's sources and answers. Skipped, saying why, when
 * nginx is not installed (CI installs it: .ci/run).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, type SourceServer, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { nginxBinary, nginxErrors, scalingBlock, startNginx, writeNginxConfig } from './helpers/nginx.js';
import { ensureBuilt, type ServeChild, startMarquee } from './helpers/serve-process.js';

const NGINX = nginxBinary();
if (!NGINX) {
  console.warn('test/hosted-nginx.test.ts: skipped: nginx is not installed (apt-get install nginx runs it)');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const CATALOG = 'catalog/tv/mq-tv-channels.json';
const USER_LINE = /"path":"\/\{config\}\//g;

describe.skipIf(!NGINX)('hosted replicas behind nginx (docs/scaling.md)', () => {
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
    const answer = await httpRequest(base, '/configure', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ playlist: `${sources.url}/a.m3u`, epg: `${sources.url}/guide.xml` }),
    });
    expect(answer.status, answer.text()).toBe(200);
    const link = new URL(answer.json().manifestUrl).pathname.replace(/manifest\.json$/, '');

    const before = replicas.map((r) => (r.output().match(USER_LINE) ?? []).length);
    for (let i = 0; i < 6; i++) {
      const catalog = await httpRequest(base, `${link}${CATALOG}`);
      expect(catalog.status).toBe(200);
      expect(catalog.json().metas).toHaveLength(3);
      expect((await httpRequest(base, `${link}manifest.json`)).status).toBe(200);
    }
    const after = replicas.map((r) => (r.output().match(USER_LINE) ?? []).length);
    const served = after.map((n, i) => n - before[i]!);
    // Twelve requests, all on one replica.
    expect(served.sort((a, b) => a - b)).toEqual([0, 12]);
    const home = after[0]! - before[0]! === 12 ? 0 : 1;
    const other = 1 - home;

    const importsBefore = (replicas[other]!.output().match(/importing a source set/g) ?? []).length;
    replicas[home]!.process.kill('SIGKILL');
    await replicas[home]!.exited;
    const moved = await httpRequest(base, `${link}${CATALOG}`);
    expect(moved.status, nginxErrors(dir)).toBe(200);
    expect(moved.json().metas).toHaveLength(3);
    // The other replica had the set only if it took the configure request; else it imports it now.
    const hadIt = replicas[other]!.output().includes('"path":"/configure"');
    const imports = () => (replicas[other]!.output().match(/importing a source set/g) ?? []).length - importsBefore;
    for (let i = 0; i < 40 && imports() < (hadIt ? 0 : 1); i++) await new Promise((r) => setTimeout(r, 50));
    expect(imports()).toBe(hadIt ? 0 : 1);
    expect((replicas[other]!.output().match(USER_LINE) ?? []).length).toBeGreaterThan(after[other]!);
  });
});
