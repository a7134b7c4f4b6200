#!/usr/bin/env node
/**
 * `node bench/health.js [--streams N] [--hosts N] [--seed N]`: `marquee health` over 10,000
 * streams on 200 hosts (defaults), with the default limits (concurrency 16, perHost 2, 8 s per
 * check), against stream hosts on 127.0.0.1 (`servers/stream-hosts.js`, one port per host) that
 * answer as real ones do: live TS, HLS masters, slow starts, 404, 403, HTML pages with 200, streams
 * that hang, hosts that refuse connections. Prints the pass's wall time against the least time
 * the limits allow for these answers, the CPU of both processes, the most connections any host
 * had open at once, and the counts against what the hosts were told to answer. Needs dist/
 * (`npm run build`). Not part of `npm run bench` (a pass takes about two minutes: the hanging
 * streams each hold a check for its whole timeout).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRandom } from './lib/prng.js';
import { PINNING, runMeasured, stop, stopAll } from './lib/processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '10000' },
    hosts: { type: 'string', default: '200' },
    seed: { type: 'string', default: '40' },
  },
});
const STREAMS = Number(values.streams);
const HOSTS = Number(values.hosts);
/** The settings' defaults, which the pass runs with. */
const LIMITS = { concurrency: 16, perHost: 2, timeoutMs: 8_000, pauseMs: 250 };
/** What the hosts answer, as shares of the streams (hosts that refuse connections come on top). */
const KINDS = [
  ['ts', 0.755],
  ['master', 0.08],
  ['slow', 0.05],
  ['404', 0.04],
  ['403', 0.02],
  ['html', 0.03],
  ['hang', 0.015],
  ['silent', 0.01],
];
const REFUSING_HOSTS = Math.max(1, Math.round(HOSTS / 50));

const rand = createRandom(Number(values.seed));
const kindOf = () => {
  let x = rand();
  for (const [kind, share] of KINDS) {
    if (x < share) return kind;
    x -= share;
  }
  return 'ts';
};

// Each channel has a main stream and a backup on the next host, as backups from another source are.
const hosts = [];
for (let h = 0; h < HOSTS; h++) {
  hosts.push({
    index: h,
    refused: h % 50 === 7 && hosts.filter((x) => x.refused).length < REFUSING_HOSTS,
    streams: [],
  });
}
const streams = [];
for (let i = 0; i < STREAMS; i++) {
  const host = hosts[i % HOSTS];
  const kind = kindOf();
  const stream = {
    index: i,
    kind,
    path: `/s/${i}.${kind === 'master' ? 'm3u8' : 'ts'}`,
    ...(kind === 'slow' ? { delayMs: rand.int(500, 2500) } : {}),
  };
  host.streams.push(stream);
  streams.push({ ...stream, host });
}

const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-health-'));
const planFile = join(dir, 'plan.json');
writeFileSync(planFile, JSON.stringify({ hosts }));

/** The playlist (a main stream and its backup per channel) and settings, once the hosts' ports are known. */
function writeSources(ports) {
  const lines = ['#EXTM3U'];
  for (let c = 0; c < STREAMS / 2; c++) {
    for (const [n, s] of [streams[2 * c], streams[2 * c + 1]].entries()) {
      if (!s) continue;
      lines.push(`#EXTINF:-1 tvg-id="ch${c}.bench" group-title="G${c % 20}",Channel ${c}${n ? ' (backup)' : ''}`);
      lines.push(`http://127.0.0.1:${ports[s.host.index]}${s.path}`);
    }
  }
  writeFileSync(join(dir, 'tv.m3u'), `${lines.join('\n')}\n`);
  writeFileSync(
    join(dir, 'marquee.yaml'),
    'db: ./tv.db\nlivetv: { playlists: [./tv.m3u] }\nsources: { allowPrivate: true }\nhealth: { enabled: true }\n',
  );
}

/** The least time the limits allow for these answers: per host, and over all hosts. */
function bound() {
  const hang = LIMITS.timeoutMs;
  const cost = (s) => {
    if (s.host.refused) return { ms: 0, requests: 1 };
    if (s.kind === 'hang' || s.kind === 'silent') return { ms: hang, requests: 1 };
    if (s.kind === 'slow') return { ms: s.delayMs, requests: 1 };
    if (s.kind === 'master') return { ms: 0, requests: 2 };
    return { ms: 0, requests: 1 };
  };
  let total = 0;
  let worstHost = 0;
  for (const host of hosts) {
    let hostMs = 0;
    for (const s of host.streams) {
      const c = cost({ ...s, host });
      total += c.ms;
      // Each request holds one of the host's slots for its time and the pause after it.
      hostMs += c.ms + c.requests * LIMITS.pauseMs;
    }
    worstHost = Math.max(worstHost, hostMs / LIMITS.perHost);
  }
  return { allHostsMs: total / LIMITS.concurrency, worstHostMs: worstHost };
}

function expected() {
  const counts = { ok: 0, dead: 0, blocked: 0, notMedia: 0, timeout: 0 };
  for (const s of streams) {
    if (s.host.refused || s.kind === '404') counts.dead++;
    else if (s.kind === '403') counts.blocked++;
    else if (s.kind === 'html') counts.notMedia++;
    else if (s.kind === 'hang' || s.kind === 'silent') counts.timeout++;
    else counts.ok++;
  }
  return counts;
}

const stats = async (url) => (await fetch(`${url}/stats`)).json();

/**
 * The stream hosts on the driver's core (0), so the pass (core 1) has its core to itself and
 * each process's CPU is its own.
 */
function startHosts() {
  const script = [join(root, 'bench/servers/stream-hosts.js'), planFile];
  const child = PINNING
    ? spawn('taskset', ['-c', PINNING.driver, process.execPath, ...script], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, script, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /ready (\S+)/.exec(String(chunk));
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`the stream hosts exited (${code})`)));
  });
}

let server;
try {
  server = await startHosts();
  writeSources(await (await fetch(`${server.url}/ports`)).json());
  const marquee = join(root, 'bin/marquee.js');
  await runMeasured(process.execPath, [marquee, 'import'], { cwd: dir });
  const before = await stats(server.url);
  const pass = await runMeasured(process.execPath, [marquee, 'health', '--json'], { cwd: dir, timeoutMs: 900_000 });
  const after = await stats(server.url);
  const report = JSON.parse(pass.stdout);
  const limit = bound();
  const leastMs = Math.max(limit.allHostsMs, limit.worstHostMs);
  console.log(
    JSON.stringify(
      {
        streams: STREAMS,
        hosts: HOSTS,
        refusingHosts: hosts.filter((h) => h.refused).length,
        passSeconds: Math.round(pass.wallMs / 100) / 10,
        leastSeconds: Math.round(leastMs / 100) / 10,
        leastAllHostsSeconds: Math.round(limit.allHostsMs / 100) / 10,
        leastWorstHostSeconds: Math.round(limit.worstHostMs / 100) / 10,
        ratio: Math.round((pass.wallMs / leastMs) * 100) / 100,
        marqueeCpuSeconds: Math.round(pass.cpuMs / 100) / 10,
        marqueePeakRssMB: pass.peakRssKiB === undefined ? undefined : Math.round(pass.peakRssKiB / 1024),
        hostsCpuSeconds: Math.round((after.cpuMs - before.cpuMs) / 100) / 10,
        requestsSent: report.requests,
        requestsServed: after.requests - before.requests,
        maxConnectionsAtOneHost: after.maxOpen,
        counts: report.counts,
        expected: expected(),
        skipped: report.skipped,
      },
      null,
      2,
    ),
  );
} finally {
  if (server) await stop(server.child);
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
