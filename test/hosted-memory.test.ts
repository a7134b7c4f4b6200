/**
 * One fake Xtream panel answering `get_live_streams` with 267 MB (issue 37): it took a hosted
 * instance from 74 MB to 2.31 GB before the user got SOURCE_TOO_LARGE (4.48 GB with two such
 * users at once, 2.27 GB for `marquee import`). Every limit is now applied while the bytes
 * arrive. The panel is generated here, on 127.0.0.1, as it streams (nothing is written to disk);
 * the peak RSS is that of the marquee process (VmHWM of /proc/<pid>/status: its main thread and
 * its import workers), never this test runner's.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { ensureBuilt, startMarquee } from './helpers/serve-process.js';

const ANSWER_BYTES = 267_000_000;
const LIMIT_MB = 300;

/** The panel: every account is valid; `get_live_streams` streams ANSWER_BYTES of live streams. */
async function hostilePanel(): Promise<{ url: string; sent: number[]; close(): Promise<void> }> {
  const sent: number[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://panel');
    const action = url.searchParams.get('action');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url.pathname === '/player_api.php' && action === null) {
      res.end(
        JSON.stringify({
          user_info: { auth: 1, status: 'Active', exp_date: null, allowed_output_formats: ['m3u8', 'ts'] },
          server_info: { timezone: 'UTC' },
        }),
      );
      return;
    }
    if (action !== 'get_live_streams') {
      res.end('[]');
      return;
    }
    // Chunked (no Content-Length to refuse it by), as fast as the reader takes it.
    const at = sent.push(0) - 1;
    let i = 0;
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    res.write('[');
    const pump = () => {
      while (!closed && sent[at]! < ANSWER_BYTES) {
        let chunk = '';
        for (let k = 0; k < 200; k++) {
          i++;
          chunk += `${i > 1 ? ',' : ''}{"num":${i},"name":"Channel number ${i} HD","stream_type":"live","stream_id":${i},"stream_icon":"http://logos.example/${i}.png","epg_channel_id":"ch${i}.example","added":"1600000000","category_id":"${i % 8}","custom_sid":"","tv_archive":0,"direct_source":"","tv_archive_duration":0}`;
        }
        sent[at]! += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end(']');
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The peak resident set of process `pid` so far, in MB (0 once it is gone). */
function peakMb(pid: number): number {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

let dir: string;
let panel: Awaited<ReturnType<typeof hostilePanel>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-memory-'));
  panel = await hostilePanel();
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await panel?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a 267 MB panel answer', () => {
  it('is cut off at its limit while it arrives: marquee serve --hosted stays under 300 MB with one such user and with two at once', async () => {
    // Three users from this one address: its import limit raised (defaults otherwise).
    writeFileSync(join(dir, 'marquee.json'), JSON.stringify({ hosted: { importsPerMinute: 60 } }));
    const serve = startMarquee(
      [
        'serve',
        '--hosted',
        '--config',
        join(dir, 'marquee.json'),
        '--allow-private-sources',
        '--port',
        '0',
        '--db',
        join(dir, 'h.db'),
        '--log-format',
        'json',
      ],
      dir,
      children,
    );
    const [, manifest] = await serve.waitFor(/manifest: +(\S+)/);
    const base = manifest!.replace(/\/manifest\.json$/, '');
    const pid = serve.process.pid!;
    const idle = peakMb(pid);
    const user = (name: string) =>
      httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ xtreamUrl: panel.url, xtreamUser: name, xtreamPass: 'pw' }),
      });

    const one = await user('first');
    expect(one.status).toBe(422);
    expect(one.json().error.message).toMatch(/^xtreamUrl: .*get_live_streams: more than 67108864 bytes/);
    const afterOne = peakMb(pid);

    const two = await Promise.all([user('second'), user('third')]);
    for (const answer of two) expect(answer.json().error.message).toMatch(/get_live_streams: more than 67108864 bytes/);
    const afterTwo = peakMb(pid);

    // Each read stopped near its limit, far from the 267 MB the panel would have sent.
    expect(panel.sent).toHaveLength(3);
    for (const bytes of panel.sent) expect(bytes).toBeLessThan(120_000_000);
    expect(afterOne, `idle ${idle.toFixed(0)} MB, one user ${afterOne.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
    expect(afterTwo, `idle ${idle.toFixed(0)} MB, two users ${afterTwo.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
    serve.process.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }, 120_000);

  it('keeps marquee import under 300 MB too, naming the answer and its limit', async () => {
    const account = `${panel.url.replace('http://', 'http://alice:pw@')}`;
    const importing = startMarquee(['import', '--db', join(dir, 'cli.db'), '--xtream', account], dir, children);
    const pid = importing.process.pid!;
    let peak = 0;
    // VmHWM only grows: the last look before the process ends has its peak.
    while (importing.process.exitCode === null) {
      peak = Math.max(peak, peakMb(pid));
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await importing.exited).toBe(1);
    expect(importing.output()).toMatch(/get_live_streams: more than 67108864 bytes/);
    expect(peak).toBeGreaterThan(0);
    expect(peak, `marquee import peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
  }, 120_000);
});
