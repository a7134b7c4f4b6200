/**
 * HTTP benchmark: Marquee (the real CLI on an imported store), the same add-on on the official
 * SDK, and a bare node:http server answering precomputed bytes, all on core 1; the load driver (lib/driver.js) on
 * core 0. Cases are interleaved (each case runs against the three servers back to back) so drift
 * in the machine's load hits the three alike.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DAY_MS, fetchAnswer, summarize } from '../lib/answers.js';
import { SEARCH_WORD } from '../lib/dataset.js';
import { measure, measurePair, quiesce } from '../lib/load.js';
import { guideStart, isoDay, SEED, SIZES, servedData } from '../lib/prepare.js';
import { runMeasured, startServer } from '../lib/processes.js';

const MOVIE = 'tt9001234';

/** The six paths, the same on every server. */
export function cases(now = Date.now()) {
  const today = isoDay(guideStart(now) + DAY_MS);
  return [
    { name: 'feed', path: '/catalog/movie/movies.json', target: true },
    { name: 'genre', path: '/catalog/movie/movies/genre=Drama.json' },
    { name: 'search', path: `/catalog/movie/movies/search=${SEARCH_WORD}.json` },
    { name: 'meta', path: `/meta/movie/${MOVIE}.json`, target: true },
    { name: 'stream', path: `/stream/movie/${MOVIE}.json` },
    { name: 'guide', path: `/catalog/tv/mq-tv-channels/date=${today}.json`, target: true },
  ];
}

/** A case is valid when the limit server keeps its core busy and the driver does not saturate its own. */
const SERVER_BUSY = 0.9;
const DRIVER_MAX = 0.9;
const PIPELINING = [1, 2, 4, 8, 16];
/** Calibration asks for a margin over the validity bounds: the measured run is longer, and noisier. */
const MARGIN = 0.03;
/** Measurements of one case before it is recorded as invalid (each may raise the pipelining). */
const ATTEMPTS = 4;
/** Interleaved rounds per case and server, each a fifth of the measured time. */
const ROUNDS = 5;
/** Warm-up before each round after the first (the server is warm by then). */
const ROUND_WARMUP_S = 0.5;

/** Rounds of the side-by-side measure (Marquee and the limit sharing the core, driven at once). */
const PAIR_ROUNDS = 3;
const PAIR_ROUND_S = 2.5;

/** Against a server with idle time, a driver this busy may be what held it back. */
const DRIVER_NEAR = 0.8;

function validity(limit, measured) {
  if (limit?.serverCpu === undefined) return { ok: false, why: 'no CPU accounting (/proc is missing)' };
  if (limit.serverCpu < SERVER_BUSY) {
    return { ok: false, why: `the limit server used ${(limit.serverCpu * 100).toFixed(0)}% of its core` };
  }
  const busy = measured.find((r) => r.driverCpu > DRIVER_MAX);
  if (busy) return { ok: false, why: `the driver used ${(busy.driverCpu * 100).toFixed(0)}% against ${busy.server}` };
  // A server that idled while the driver was near its limit may have been waiting for the driver
  // (a slower answer costs the driver more wake-ups per response): its ratio would be the driver's.
  const held = measured.find(
    (r) => r.serverCpu !== undefined && r.serverCpu < SERVER_BUSY && r.driverCpu > DRIVER_NEAR,
  );
  if (held) {
    return {
      ok: false,
      why: `${held.server} used ${(held.serverCpu * 100).toFixed(0)}% of its core while the driver used ${(held.driverCpu * 100).toFixed(0)}%`,
    };
  }
  return { ok: true };
}

/** The smallest pipelining depth at which the limit server is CPU-bound with the driver under 90%. */
async function saturate(url, { connections, compressed, serverPid, log }) {
  for (const pipelining of PIPELINING) {
    const probe = await measure(url, { connections, pipelining, durationS: 1.5, warmupS: 0.5, compressed, serverPid });
    log(
      `http: calibrating ${url.replace(/^http:\/\/[^/]+/, '')}: pipelining ${pipelining}: limit server ${(probe.serverCpu * 100).toFixed(0)}%, driver ${(probe.driverCpu * 100).toFixed(0)}%`,
    );
    if (probe.serverCpu >= SERVER_BUSY + MARGIN && probe.driverCpu <= DRIVER_MAX - MARGIN) return pipelining;
  }
  return PIPELINING[PIPELINING.length - 1];
}

const READY_MARQUEE = /manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/;
const READY_NODE = /^listening (http:\/\/127\.0\.0\.1:\d+)$/;

/**
 * Run every case against the three servers. `log` prints progress.
 *
 * @example const http = await runHttp({ root, dir, durationS: 5, warmupS: 1, log: console.log })
 */
export async function runHttp({ root, dir, durationS, warmupS, connections, log }) {
  const start = guideStart();
  const data = await servedData(dir, start);
  const db = join(dir, 'http-marquee.db');
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  const sources = ['--playlist', data.playlist.path, '--epg', data.epg.path, '--library', data.library.path];
  // Loaded here, not at the top: dist/ is built by the time a section runs.
  const { SERVE_NODE_OPTIONS } = await import(pathToFileURL(join(root, 'dist/cli/relaunch.js')).href);
  log('http: importing the served dataset through `marquee import`');
  await runMeasured(process.execPath, [join(root, 'bin/marquee.js'), 'import', '--db', db, ...sources, '--json']);

  const list = cases();
  const servers = [];
  try {
    const marquee = await startServer(
      process.execPath,
      // The options `marquee serve` relaunches itself with (src/cli/relaunch.ts), given here so that
      // the measured PID is the server's own, not the waiting parent's.
      [
        ...SERVE_NODE_OPTIONS,
        join(root, 'bin/marquee.js'),
        'serve',
        '--db',
        db,
        ...sources,
        '--port',
        '0',
        '--quiet',
        '--refresh-hours',
        '0',
      ],
      READY_MARQUEE,
      { cwd: dir },
    );
    servers.push({ name: 'Marquee', ...marquee });
    const spec = {
      seed: SEED,
      movies: SIZES.movies,
      channels: SIZES.channels,
      start,
      days: SIZES.days,
      perDay: SIZES.perDay,
    };
    const sdk = await startServer(
      process.execPath,
      [join(root, 'bench/servers/sdk-addon.js'), JSON.stringify(spec)],
      READY_NODE,
    );
    servers.push({ name: 'SDK', ...sdk });

    // The limit answers Marquee's exact bytes and headers, plain and to `Accept-Encoding: gzip,
    // br`, so its numbers bound what Marquee could reach.
    const bodies = {};
    for (const c of list) {
      const variants = {};
      for (const [variant, compressed] of [
        ['identity', false],
        ['compressed', true],
      ]) {
        const answer = await fetchAnswer(marquee.url + c.path, compressed);
        if (answer.status !== 200) throw new Error(`Marquee answered ${answer.status} to ${c.path}`);
        variants[variant] = { headers: answer.headers, body: answer.raw.toString('base64') };
      }
      bodies[c.path] = variants;
    }
    const bodiesFile = join(dir, 'bare-bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    // With Marquee's Node options too: the limit is Node at its best. Without them it idles between
    // its rounds like Marquee did and meets V8's memory reducer (bench/README.md, "After an idle pause").
    const bare = await startServer(
      process.execPath,
      [...SERVE_NODE_OPTIONS, join(root, 'bench/servers/bare.js'), bodiesFile],
      READY_NODE,
    );
    servers.push({ name: 'limit', ...bare });

    // What each server answers, so a reader can see the three serve the same thing.
    const answers = [];
    for (const c of list) {
      for (const s of servers) {
        const plain = await fetchAnswer(s.url + c.path);
        const packed = await fetchAnswer(s.url + c.path, true);
        answers.push({
          case: c.name,
          server: s.name,
          ...summarize(plain),
          compressedBytes: packed.bytes,
          encoding: packed.encoding,
        });
      }
    }

    const rows = [];
    const pidOf = (server) => server.child.pid;
    for (const compressed of [false, true]) {
      for (const c of list) {
        // The driver must not be the bottleneck: raise pipelining until the limit server (which
        // only replays bytes) keeps its core busy while this process stays under 90% of its own.
        for (const s of servers) await quiesce(pidOf(s));
        let pipelining = await saturate(bare.url + c.path, { connections, compressed, serverPid: pidOf(bare), log });
        for (let attempt = 1; ; attempt++) {
          // Rounds interleave the servers (M, S, L, M, S, L, ...): this machine's speed drifts
          // within seconds, and a ratio of two back-to-back runs carried that drift. Each server's
          // row is its median round; its CPU shares are the means over its rounds.
          const rounds = Object.fromEntries(servers.map((s) => [s.name, []]));
          for (let round = 0; round < ROUNDS; round++) {
            for (const s of servers) {
              log(
                `http: ${c.name}${compressed ? ' (gzip, br)' : ''} → ${s.name} (pipelining ${pipelining}, round ${round + 1} of ${ROUNDS})`,
              );
              const result = await measure(s.url + c.path, {
                connections,
                pipelining,
                durationS: durationS / ROUNDS,
                warmupS: round === 0 ? warmupS : Math.min(warmupS, ROUND_WARMUP_S),
                compressed,
                serverPid: pidOf(s),
              });
              rounds[s.name].push(result);
              log(
                `http:   ${Math.round(result.requestsPerSecond)} req/s, server ${Math.round((result.serverCpu ?? 0) * 100)}%, driver ${Math.round(result.driverCpu * 100)}%`,
              );
              await quiesce(pidOf(s));
            }
          }
          const measured = servers.map((s) => ({
            case: c.name,
            path: c.path,
            target: c.target === true,
            compressed,
            server: s.name,
            ...medianRound(rounds[s.name]),
          }));
          const limit = measured.find((r) => r.server === 'limit');
          const valid = validity(limit, measured);
          if (valid.ok || attempt === ATTEMPTS) {
            for (const r of measured)
              rows.push({ ...r, valid: valid.ok, ...(valid.ok ? {} : { invalid: valid.why }), attempt });
            break;
          }
          // A server had idle time while the driver had room, or was held back by a busy driver:
          // more requests in flight (the driver then batches more responses per wake-up).
          const room = measured.every((r) => r.driverCpu <= DRIVER_MAX - MARGIN);
          const idle = measured.some((r) => r.serverCpu !== undefined && r.serverCpu < SERVER_BUSY);
          const deeper = PIPELINING.find((d) => d > pipelining);
          if (idle && (room || valid.why.includes('while the driver')) && deeper !== undefined) pipelining = deeper;
          log(`http: ${c.name}: invalid (${valid.why}); measuring the case again (pipelining ${pipelining})`);
        }
      }
    }
    const pairs = await sideBySide(list, rows, { marquee, bare, servers, connections, pidOf, log });
    return { cases: list, answers, rows, pairs, connections, durationS, warmupS, rounds: ROUNDS };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/**
 * The target cases measured side by side (lib/load.js measurePair): Marquee and the limit on
 * the same core, driven at once, in PAIR_ROUNDS rounds at the case's pipelining. Valid when
 * the core was busy (the two shares add up to ≥ 90%), neither server had much more of it than
 * the other (each 40-60%), and the driver stayed ≤ 90% of its own. The ratio is the median round's.
 */
async function sideBySide(list, rows, { marquee, bare, servers, connections, pidOf, log }) {
  const pairs = [];
  for (const compressed of [false, true]) {
    for (const c of list.filter((x) => x.target)) {
      const pipelining =
        rows.find((r) => r.case === c.name && r.compressed === compressed && r.server === 'limit')?.pipelining ?? 1;
      const rounds = [];
      for (let round = 0; round < PAIR_ROUNDS; round++) {
        // Every server idle first: the SDK's backlog would take the shared core from both.
        for (const s of servers) await quiesce(pidOf(s));
        log(
          `http: ${c.name}${compressed ? ' (gzip, br)' : ''} → Marquee and limit side by side (round ${round + 1} of ${PAIR_ROUNDS})`,
        );
        const result = await measurePair([marquee.url + c.path, bare.url + c.path], {
          connections,
          pipelining,
          durationS: PAIR_ROUND_S,
          compressed,
          serverPids: [pidOf(marquee), pidOf(bare)],
        });
        const [m, l] = result.servers;
        const ratio = m.requestsPerSecond / l.requestsPerSecond;
        log(
          `http:   ${Math.round(m.requestsPerSecond)} / ${Math.round(l.requestsPerSecond)} req/s (${ratio.toFixed(3)}), servers ${Math.round((m.serverCpu ?? 0) * 100)}% / ${Math.round((l.serverCpu ?? 0) * 100)}%, driver ${Math.round(result.driverCpu * 100)}%`,
        );
        rounds.push({ ...result, ratio });
      }
      const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
      const median = sorted[Math.floor(sorted.length / 2)];
      const why = pairValidity(rounds);
      pairs.push({
        case: c.name,
        compressed,
        pipelining,
        marquee: median.servers[0],
        limit: median.servers[1],
        driverCpu: median.driverCpu,
        ratio: median.ratio,
        ratios: rounds.map((r) => r.ratio),
        errors: rounds.reduce((sum, r) => sum + r.servers.reduce((t, x) => t + x.errors + x.non2xx, 0), 0),
        valid: why === undefined,
        ...(why === undefined ? {} : { invalid: why }),
      });
    }
  }
  return pairs;
}

/** Why a side-by-side measure is not valid, or undefined. */
function pairValidity(rounds) {
  for (const r of rounds) {
    const [m, l] = r.servers;
    if (m.serverCpu === undefined || l.serverCpu === undefined) return 'no CPU accounting (/proc is missing)';
    if (m.serverCpu + l.serverCpu < SERVER_BUSY)
      return `the core was ${((m.serverCpu + l.serverCpu) * 100).toFixed(0)}% busy`;
    if (Math.min(m.serverCpu, l.serverCpu) < 0.4)
      return `the core was shared ${(m.serverCpu * 100).toFixed(0)}% / ${(l.serverCpu * 100).toFixed(0)}%`;
    if (r.driverCpu > DRIVER_MAX) return `the driver used ${(r.driverCpu * 100).toFixed(0)}%`;
  }
  return undefined;
}

/** The round with the median requests/s, with CPU shares averaged over every round and each round's rate kept. */
function medianRound(list) {
  const sorted = [...list].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = sorted[Math.floor(sorted.length / 2)];
  const mean = (key) =>
    list.every((r) => r[key] !== undefined) ? list.reduce((sum, r) => sum + r[key], 0) / list.length : undefined;
  const serverCpu = mean('serverCpu');
  return {
    ...median,
    driverCpu: mean('driverCpu'),
    ...(serverCpu === undefined ? {} : { serverCpu }),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    rounds: list.map((r) => Math.round(r.requestsPerSecond)),
  };
}
