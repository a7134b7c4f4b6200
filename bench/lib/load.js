/**
 * The load driver (lib/driver.js: raw sockets, pipelined, bodies skipped) in this process. Each
 * case gets a short warm-up (JIT, caches, keep-alive sockets) that is thrown away, then a
 * measured run of fixed duration. Around the measured run the CPU time of the server under test
 * (from /proc/PID/stat) and of this process (the driver) are read, so a run can show that the
 * server, not the driver, was the bottleneck.
 */
import { readFileSync } from 'node:fs';
import { drive } from './driver.js';

const COMPRESSED = { 'accept-encoding': 'gzip, br' };
/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

function run({ url, connections, pipelining, duration, headers }) {
  return drive(url, { connections, pipelining, durationS: duration, headers });
}

/** CPU seconds (user + system) process `pid` has used so far; undefined where /proc is absent. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), in parentheses: utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Waits until process `pid` is idle (under 10% of a core over 200 ms), at most `maxS` seconds; the
 * seconds waited. A server that fell behind (the SDK's guide pages take about 30 ms each, and 20
 * connections leave it a backlog of answers it still computes after the driver has gone) would
 * otherwise take the shared core from the next server measured.
 * @example await quiesce(child.pid)
 */
export async function quiesce(pid, maxS = 15) {
  const started = performance.now();
  for (;;) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = cpuSeconds(pid);
    const waited = (performance.now() - started) / 1000;
    if (before === undefined || after === undefined || after - before < 0.02 || waited >= maxS) return waited;
  }
}

/**
 * Requests/s, p50/p99 latency (ms), errors and non-2xx of `connections` keep-alive connections
 * (each with `pipelining` requests in flight) hammering `url` for `durationS` seconds after
 * `warmupS` seconds of warm-up; with `serverPid`, the server's and the driver's CPU use during
 * the measured run, as a share of one core.
 *
 * @example await measure('http://127.0.0.1:7000/manifest.json', { durationS: 5, compressed: true, serverPid: 1234 })
 */
export async function measure(
  url,
  { connections = 20, pipelining = 1, durationS = 5, warmupS = 1, compressed = false, serverPid } = {},
) {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing to load anything but 127.0.0.1: ${url}`);
  const headers = compressed ? COMPRESSED : {};
  if (warmupS > 0) await run({ url, connections, pipelining, duration: warmupS, headers });
  const serverBefore = serverPid === undefined ? undefined : cpuSeconds(serverPid);
  const driverBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run({ url, connections, pipelining, duration: durationS, headers });
  const wall = (performance.now() - started) / 1000;
  const driver = process.cpuUsage(driverBefore);
  const serverAfter = serverPid === undefined ? undefined : cpuSeconds(serverPid);
  return {
    requestsPerSecond: result.requestsPerSecond,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    connections,
    pipelining,
    driverCpu: (driver.user + driver.system) / 1e6 / wall,
    ...(serverBefore !== undefined && serverAfter !== undefined
      ? { serverCpu: (serverAfter - serverBefore) / wall }
      : {}),
  };
}

/**
 * Two servers sharing one core, driven at once from this process: `connections` each, for
 * `durationS` seconds after `warmupS` of warm-up. The kernel's scheduler gives two busy processes
 * on one core equal time, so each answers at half its rate and the ratio of their rates is the
 * ratio of their costs per request, measured under the same conditions at the same moment: the
 * machine's drifts, which move a run of one server against the next by ±10-50% here, hit both
 * alike. Per server its requests/s and CPU share (/proc/PID/stat); the driver's CPU share.
 *
 * @example await measurePair(['http://127.0.0.1:7000/x', 'http://127.0.0.1:7001/x'], { serverPids: [1, 2] })
 */
export async function measurePair(
  urls,
  { connections = 20, pipelining = 1, durationS = 3, warmupS = 0.5, compressed = false, serverPids } = {},
) {
  for (const url of urls) {
    if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing to load anything but 127.0.0.1: ${url}`);
  }
  const headers = compressed ? COMPRESSED : {};
  const both = (duration) => Promise.all(urls.map((url) => run({ url, connections, pipelining, duration, headers })));
  if (warmupS > 0) await both(warmupS);
  const before = serverPids.map(cpuSeconds);
  const driverBefore = process.cpuUsage();
  const started = performance.now();
  const results = await both(durationS);
  const wall = (performance.now() - started) / 1000;
  const driver = process.cpuUsage(driverBefore);
  const after = serverPids.map(cpuSeconds);
  return {
    servers: results.map((r, i) => ({
      requestsPerSecond: r.requestsPerSecond,
      errors: r.errors,
      non2xx: r.non2xx,
      ...(before[i] !== undefined && after[i] !== undefined ? { serverCpu: (after[i] - before[i]) / wall } : {}),
    })),
    driverCpu: (driver.user + driver.system) / 1e6 / wall,
    connections,
    pipelining,
  };
}
