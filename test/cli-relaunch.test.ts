/**
 * `marquee serve` relaunches itself with V8's memory reducer off (src/cli/relaunch.ts): the
 * server runs in a child with `--no-memory-reducer`, signals reach it through the parent, the
 * parent exits as it did, and a parent killed outright takes the server down with it.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_ENV, relaunchEnv, relaunchOptions, SERVE_NODE_OPTIONS } from '../src/cli/relaunch.js';
import { httpRequest } from './helpers/http.js';
import { alive, childrenOf, ensureBuilt, PROC, type ServeChild, startMarquee } from './helpers/serve-process.js';

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

describe('relaunchEnv', () => {
  it('relaunches `import` on Linux with two malloc arenas, and nothing else', () => {
    expect(IMPORT_ENV).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(relaunchEnv(['import', '--db', 'x.db'], {}, 'linux')).toEqual(IMPORT_ENV);
    for (const command of [['serve', '--demo'], ['check', 'http://x'], ['export'], ['status'], []]) {
      expect(relaunchEnv(command, {}, 'linux')).toBeUndefined();
    }
    expect(relaunchEnv(['import', '--help'], {}, 'linux')).toBeUndefined();
    expect(relaunchEnv(['import'], {}, 'darwin')).toBeUndefined();
    expect(relaunchEnv(['import'], {}, 'win32')).toBeUndefined();
  });

  it('leaves malloc settings already given to glibc, and has the same exceptions as serve', () => {
    for (const given of [{ MALLOC_ARENA_MAX: '4' }, { MALLOC_MMAP_THRESHOLD_: '131072' }]) {
      expect(relaunchEnv(['import'], given, 'linux')).toBeUndefined();
    }
    for (const env of [
      { MARQUEE_RELAUNCH: 'off' },
      { MARQUEE_RELAUNCHED: '1' },
      { NODE_UNIQUE_ID: '1' },
      { pm_id: '0' },
    ]) {
      expect(relaunchEnv(['import'], env, 'linux')).toBeUndefined();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('marquee import as a process', () => {
  beforeAll(ensureBuilt, 120_000);
  const fixtures = join(import.meta.dirname, 'fixtures', 'livetv');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-relaunch-import-'));
    // The fixture guide moved to today: `marquee import` reads it at the real clock, and a guide
    // whose programmes all ended before the served window is a failed source (exit 1).
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const guide = readFileSync(join(fixtures, 'guide.xml'), 'utf8')
      .replace(/20260228/g, day(-1))
      .replace(/20260301/g, day(0))
      .replace(/20260302/g, day(1));
    writeFileSync(join(dir, 'guide.xml.gz'), gzipSync(guide));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Each Node process of the run says at start whether it was relaunched and with which arenas. */
  const SAY = `data:text/javascript,process.stderr.write('node: relaunched=' + process.env.MARQUEE_RELAUNCHED + ' arenas=' + process.env.MALLOC_ARENA_MAX + '\\n')`;
  function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(MALLOC_|MARQUEE_)/.test(k)));
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', SAY, BIN_PATH, ...args],
        { cwd: dir, env: { ...clean, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }
  const BIN_PATH = join(import.meta.dirname, '..', 'bin', 'marquee.js');

  it('imports in a child with MALLOC_ARENA_MAX=2: the same report, and a failure ends the same', async () => {
    const sources = ['--playlist', join(fixtures, 'channels.m3u'), '--epg', join(dir, 'guide.xml.gz'), '--json'];
    const relaunched = await run(['import', '--db', join(dir, 'a.db'), ...sources], {});
    const inPlace = await run(['import', '--db', join(dir, 'b.db'), ...sources], { MARQUEE_RELAUNCH: 'off' });
    expect(relaunched.stderr).toMatch(/^node: relaunched=undefined arenas=undefined\nnode: relaunched=1 arenas=2\n/);
    expect(inPlace.stderr).toMatch(/^node: relaunched=undefined arenas=undefined\n/);
    expect(inPlace.stderr).not.toMatch(/relaunched=1/);
    expect([relaunched.code, inPlace.code]).toEqual([0, 0]);
    const counts = (out: string) => JSON.parse(out).livetv.counts;
    expect(counts(relaunched.stdout)).toEqual(counts(inPlace.stdout));
    expect(counts(relaunched.stdout).channels).toBeGreaterThan(0);
    // The gzip guide was read and inflated in the child as in place: the same bytes and records.
    const sourcesOf = (out: string) =>
      JSON.parse(out).livetv.sources.map((x: Record<string, unknown>) => [x.kind, x.outcome, x.bytes, x.records]);
    expect(sourcesOf(relaunched.stdout)).toEqual(sourcesOf(inPlace.stdout));
    expect(sourcesOf(relaunched.stdout)).toContainEqual(['guide', 'imported', 2321, expect.any(Number)]);

    const failed = await run(['import', '--db', join(dir, 'c.db'), '--playlist', join(dir, 'missing.m3u')], {});
    const failedHere = await run(['import', '--db', join(dir, 'd.db'), '--playlist', join(dir, 'missing.m3u')], {
      MARQUEE_RELAUNCH: 'off',
    });
    expect(failed.code).toBe(failedHere.code);
    expect(failed.code).not.toBe(0);
    const withoutSay = (text: string) => text.replace(/^node: .*\n/gm, '');
    expect(withoutSay(failed.stderr)).toBe(withoutSay(failedHere.stderr).replaceAll('d.db', 'c.db'));
  }, 60_000);
});

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

  it('serves from a child with --no-memory-reducer; SIGHUP ends neither; SIGTERM to the parent stops both, exit 0', async () => {
    const { child, port } = await serve();
    const server = childrenOf(child.process.pid!);
    expect(server).toHaveLength(1);
    expect(server[0]!.args).toContain('--no-memory-reducer');
    expect(server[0]!.args.slice(-6)).toEqual(['serve', '--demo', '--port', '0', '--refresh-hours', '0']);
    expect((await httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).status).toBe(200);

    // SIGHUP reaches the server and ends neither process; with nothing changed it logs nothing
    // (test/reliability/signals.test.ts has it reload what changed).
    const before = child.output().length;
    child.process.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(child.process.pid!) && alive(server[0]!.pid)).toBe(true);
    expect(child.output().slice(before)).not.toMatch(/reloaded|SIGHUP/);
    expect((await httpRequest(`http://127.0.0.1:${port}`, '/manifest.json')).status).toBe(200);

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
