/**
 * The load driver: autocannon (pinned in devDependencies) through its programmatic API, in
 * this process. Each case gets a short warm-up (JIT, caches, keep-alive sockets) that is thrown
 * away, then a measured run of fixed duration.
 */
import autocannon from 'autocannon';

const COMPRESSED = { 'accept-encoding': 'gzip, br' };

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Requests/s, p50/p99 latency (ms), errors and non-2xx of `connections` keep-alive connections
 * hammering `url` for `durationS` seconds after `warmupS` seconds of warm-up.
 *
 * @example await measure('http://127.0.0.1:7000/manifest.json', { durationS: 5, compressed: true })
 */
export async function measure(url, { connections = 20, durationS = 5, warmupS = 1, compressed = false } = {}) {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing to load anything but 127.0.0.1: ${url}`);
  const headers = compressed ? COMPRESSED : {};
  if (warmupS > 0) await run({ url, connections, duration: warmupS, headers });
  const result = await run({ url, connections, duration: durationS, headers });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: result.throughput.average,
  };
}
