/**
 * A reader that stops reading (`marquee status | head -1`) closes the pipe under the command: the
 * next write fails with EPIPE, which ended every command with a stack trace. Now every command
 * ends quietly, with its own exit code: `status` on a large hosted registry, and `serve`, whose
 * log lines go to the closed pipe.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from './helpers/http.js';
import { BIN, ensureBuilt } from './helpers/serve-process.js';

let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-pipe-'));
}, 120_000);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs marquee with its stdout read until `until` matches, then closed (as `head` does); `read`
 * resolves with the match, `exited` with the exit code, the signal and stderr.
 */
function readUntil(args: string[], until: RegExp) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', MARQUEE_RELAUNCH: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const read = new Promise<RegExpExecArray>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = until.exec(out);
      if (match) {
        child.stdout!.destroy();
        resolve(match);
      }
    });
  });
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { read, exited };
}

describe('a closed pipe', () => {
  it('ends marquee status quietly, with its exit code', async () => {
    const hosted = join(dir, 'marquee.db.hosted');
    mkdirSync(hosted, { recursive: true });
    const sets: Record<string, unknown> = {};
    const now = Date.now();
    for (let i = 0; i < 3_000; i++) {
      const key = i.toString(16).padStart(32, '0');
      sets[key] = {
        key,
        createdAt: now,
        lastUsedAt: now - i * 1_000,
        importedAt: now,
        lastImport: { at: now, outcome: i === 2_999 ? 'failed' : 'imported' },
        counts: { channels: 3, withGuide: 3, programmes: 12, movies: 0, series: 0 },
      };
    }
    writeFileSync(join(hosted, 'sets.json'), JSON.stringify({ version: 1, sets }));
    const status = readUntil(['status'], /^.*\n/);
    expect((await status.read)[0]).toMatch(/^hosted source sets in .*: 3000\n$/);
    // One set's last import failed: status exits 1, pipe or no pipe.
    expect(await status.exited).toEqual({ code: 1, signal: null, stderr: '' });
  });

  it('ends marquee serve quietly once its log lines have nowhere to go', async () => {
    const serve = readUntil(['serve', '--demo', '--port', '0', '--log-format', 'json'], /manifest: +(\S+)/);
    const manifest = (await serve.read)[1]!;
    // The request's log line writes into the closed pipe, unless a line the server writes on its
    // own (the rest of the banner, the warm-up's) got there first: then serve is already stopping
    // and refuses the connection, or (under load) accepted it a moment before it closed and
    // resets it. Either way it ends quietly, with exit code 0.
    const answer = await httpRequest(new URL(manifest).origin, '/manifest.json').catch((e: NodeJS.ErrnoException) => e);
    if (answer instanceof Error) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(answer.code);
    else expect(answer.status).toBe(200);
    expect(await serve.exited).toEqual({ code: 0, signal: null, stderr: '' });
  }, 60_000);
});
