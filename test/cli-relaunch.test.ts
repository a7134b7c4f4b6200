/**
 * `marquee serve` relaunches itself with V8's memory reducer off (src/cli/relaunch.ts): the
 * server runs in a child with `--no-memory-reducer`, signals reach it through the parent, the
 * parent exits as it did, and a parent killed outright takes the server down with it.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { relaunchOptions, SERVE_NODE_OPTIONS } from '../src/cli/relaunch.js';
import { httpRequest } from './helpers/http.js';
import { ensureBuilt, type ServeChild, startMarquee } from './helpers/serve-process.js';

describe('relaunchOptions', () => {
  it('relaunches `serve` only, with the memory reducer off', () => {
    expect(relaunchOptions(['serve', '--demo'], [], {})).toEqual(['--no-memory-reducer']);
    expect(SERVE_NODE_OPTIONS).toEqual(['--no-memory-reducer']);
    for (const command of [['import', '--db', 'x.db'], ['check', 'http://x'], ['export'], ['status'], []]) {
      expect(relaunchOptions(command, [], {})).toBeUndefined();
    }
    expect(relaunchOptions(['serve', '--help'], [], {})).toBeUndefined();
  });

  it('leaves a memory-reducer choice already made to Node, and obeys MARQUEE_RELAUNCH=off', () => {
    for (const given of ['--no-memory-reducer', '--memory-reducer', '--no-memory_reducer', '--nomemory-reducer']) {
      expect(relaunchOptions(['serve'], ['--enable-source-maps', given], {})).toBeUndefined();
    }
    expect(relaunchOptions(['serve'], ['--memory-reducer-for-small-heaps'], {})).toEqual(['--no-memory-reducer']);
    expect(relaunchOptions(['serve'], [], { MARQUEE_RELAUNCH: 'off' })).toBeUndefined();
    expect(relaunchOptions(['serve'], [], { MARQUEE_RELAUNCHED: '1' })).toBeUndefined();
  });

  it('does not relaunch a cluster worker, a pm2 process, or on Windows', () => {
    expect(relaunchOptions(['serve'], [], { NODE_UNIQUE_ID: '1' })).toBeUndefined();
    expect(relaunchOptions(['serve'], [], { pm_id: '0' })).toBeUndefined();
    expect(relaunchOptions(['serve'], [], {}, 'win32')).toBeUndefined();
    expect(relaunchOptions(['serve'], [], {}, 'darwin')).toEqual(['--no-memory-reducer']);
  });
});

/** Linux's list of a process's children, and their command lines. */
const PROC = existsSync('/proc/self/task');
function childrenOf(pid: number): { pid: number; args: string[] }[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .map((child) => {
      try {
        return { pid: child, args: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean) };
      } catch {
        return { pid: child, args: [] };
      }
    });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe.skipIf(!PROC)('marquee serve as a process', () => {
  beforeAll(ensureBuilt, 120_000);
  let dir: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-relaunch-'));
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function serve(
    env: NodeJS.ProcessEnv = { MARQUEE_RELAUNCH: 'on' },
  ): Promise<{ child: ServeChild; port: number }> {
    const child = startMarquee(['serve', '--demo', '--port', '0', '--refresh-hours', '0'], dir, children, env);
    const port = Number((await child.waitFor(/manifest:\s+http:\/\/127\.0\.0\.1:(\d+)\/manifest\.json/))[1]);
    return { child, port };
  }

  it('serves from a child with --no-memory-reducer; SIGHUP reaches it; SIGTERM to the parent stops both, exit 0', async () => {
    const { child, port } = await serve();
    const server = childrenOf(child.process.pid!);
    expect(server).toHaveLength(1);
    expect(server[0]!.args).toContain('--no-memory-reducer');
    expect(server[0]!.args.slice(-6)).toEqual(['serve', '--demo', '--port', '0', '--refresh-hours', '0']);
    expect((await httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).status).toBe(200);

    // SIGHUP reaches the server: it reloads its key ring.
    child.process.kill('SIGHUP');
    await child.waitFor(/reloaded the key ring/);
    expect(alive(child.process.pid!)).toBe(true);

    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(alive(server[0]!.pid)).toBe(false);
    // Forwarded once: the server logged one stop, not a second signal's default death.
    expect(child.output().match(/SIGTERM: finishing requests in flight/g)).toHaveLength(1);
  }, 30_000);

  it('stops the server when the parent is killed outright', async () => {
    const { child, port } = await serve();
    const server = childrenOf(child.process.pid!)[0]!;
    child.process.kill('SIGKILL');
    expect(await until(() => !alive(server.pid), 15_000)).toBe(true);
    expect(child.output()).toMatch(/parent process gone: finishing requests in flight/);
    await expect(httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).rejects.toThrow();
  }, 30_000);

  it('runs in the process itself with MARQUEE_RELAUNCH=off', async () => {
    const { child, port } = await serve({ MARQUEE_RELAUNCH: 'off' });
    expect(childrenOf(child.process.pid!)).toEqual([]);
    expect((await httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).status).toBe(200);
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 30_000);
});
