/**
 * Thousands of idle connections from one address (issue 18) against a real `marquee serve`:
 * past `security.maxConnectionsPerAddress` (64) each new one is closed at once, so the server's
 * file descriptors stay bounded and a client at another address is still served quickly. Load
 * goes to 127.0.0.1 only; the attack is bounded (5,000 connections) and every socket is closed
 * at the end. (21,000 connections exhausted the descriptors before the cap.)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-flood-'));
}, 120_000);
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** One GET from `localAddress`, timed. */
function timedGet(port: number, path: string, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.setTimeout(5_000, () => req.destroy(new Error('timed out')));
    req.end();
  });
}

describe('idle connections from one address', () => {
  it('are capped at 64; another address is still served with p99 under 100 ms', async () => {
    const library = join(ROOT, 'examples', 'library', 'library.json');
    const child = startMarquee(
      ['serve', '--port', '0', '--db', join(dir, 'm.db'), '--library', library, '--quiet', '--refresh-hours', '0'],
      dir,
      children,
    );
    const port = Number((await child.waitFor(/manifest:\s+http:\/\/127\.0\.0\.1:(\d+)\/manifest\.json/, 60_000))[1]);
    const fds = () => readdirSync(`/proc/${child.process.pid}/fd`).length;
    const before = fds();

    // The attack: 5,000 connections from 127.0.0.1 that never send a byte.
    let closedByServer = 0;
    for (let i = 0; i < 5_000; i++) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
      socket.on('error', () => {});
      socket.on('close', () => closedByServer++);
      sockets.push(socket);
      if (i % 500 === 499) await new Promise((r) => setTimeout(r, 20));
    }
    // The server closes each one past the cap as it accepts it (slower on a loaded machine).
    const deadline = Date.now() + 20_000;
    while (closedByServer < 5_000 - 64 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(closedByServer).toBeGreaterThanOrEqual(5_000 - 64);
    expect(fds() - before).toBeLessThanOrEqual(64 + 8);

    // Another client, at 127.0.0.2, during the attack.
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const { status, ms } = await timedGet(port, '/catalog/movie/movies.json', '127.0.0.2');
      expect(status).toBe(200);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    const p99 = times[Math.floor(times.length * 0.99) - 1]!;
    expect(p99).toBeLessThan(100);
    // The attacker's own address is refused past the cap, not served.
    await expect(timedGet(port, '/manifest.json', '127.0.0.1')).rejects.toThrow();

    for (const s of sockets.splice(0)) s.destroy();
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 90_000);
});
