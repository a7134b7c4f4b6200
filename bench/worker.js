#!/usr/bin/env node
/**
 * `node bench/worker.js [--rounds 5] [--seconds 2] [--connections 4]`: what a catalog page costs a
 * Cloudflare Worker in CPU time, in workerd (miniflare, as `wrangler dev` runs it): Marquee's
 * Worker (`stremio-marquee/fetch`, from dist/) with its response cache, without it (every request
 * builds the 100-film page and checks it against the protocol), and without the check either;
 * Hono serving the same JSON; the page's bytes made once and answered as they are (what taking a
 * request and sending that many bytes cost, with no add-on work); and a tiny fixed answer (the
 * floor: the runtime and miniflare's entry Worker alone). Each Worker runs in a workerd of its own, pinned to core 1; the load driver
 * (lib/driver.js) runs here on core 0. A round loads one Worker for `--seconds`, reading the CPU
 * time of every thread of its workerd (/proc/PID/task/TID/schedstat, nanoseconds) and of this
 * process around it; the Workers take turns, each round starting one Worker later. Per Worker: the median round's
 * CPU time per request, and that minus the same bytes made once (the add-on's own work).
 *
 * Writes the "## Cost on a Worker" section of bench/results.md (after the hand-written analysis,
 * which `npm run bench` keeps), with the bundle sizes. Not part of `npm run bench`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { ensureBuilt } from './lib/build.js';
import { drive } from './lib/driver.js';
import { describePinning, PINNING, pinSelf } from './lib/processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PATH = '/catalog/movie/films.json';
/** The compatibility date of examples/worker/wrangler.toml. */
const DATE = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(
  readFileSync(join(root, 'examples/worker/wrangler.toml'), 'utf8'),
)[1];

const WORKERS = [
  { name: 'Marquee, cached page', file: 'marquee.js', bindings: {} },
  { name: 'Marquee, page built each request', file: 'marquee.js', bindings: { CACHE: 'off' } },
  { name: 'Marquee, built, answers unchecked', file: 'marquee.js', bindings: { CACHE: 'off', VALIDATE: 'off' } },
  { name: 'Hono, the same JSON', file: 'hono.js', bindings: {} },
  { name: 'the same bytes, made once (no add-on work)', file: 'fixed.js', bindings: {} },
  { name: 'a tiny fixed answer (the floor)', file: 'empty.js', bindings: {} },
];

/** `stremio-marquee/*` from dist/ through package.json `exports`, as an installed package resolves. */
const fromDist = {
  name: 'stremio-marquee-dist',
  setup(b) {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    b.onResolve({ filter: /^stremio-marquee(\/|$)/ }, (args) => {
      const sub = args.path === 'stremio-marquee' ? '.' : `.${args.path.slice('stremio-marquee'.length)}`;
      return { path: join(root, pkg.exports[sub]) };
    });
  },
};

/** A Worker's bundle as a deploy makes it (esbuild, browser platform, minified). */
async function bundle(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
    minify: true,
    write: false,
    logLevel: 'silent',
    plugins: [fromDist],
  });
  const code = result.outputFiles[0].text;
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).byteLength };
}

/** workerd processes that are children of this one. */
function workerdChildren() {
  const found = new Set();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (name === 'workerd' && ppid === process.pid) found.add(Number(pid));
    } catch {}
  }
  return found;
}

/** CPU nanoseconds every thread of `pid` has run so far. */
function cpuNs(pid) {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {}
  }
  return total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ns) => (ns / 1000).toFixed(1);

async function main() {
  pinSelf();
  const built = ensureBuilt(root);
  console.log(built);
  const example = await bundle(join(root, 'examples/worker/index.ts'));
  const started = [];
  try {
    for (const worker of WORKERS) {
      const code = (await bundle(join(root, 'bench/workers', worker.file))).code;
      const before = workerdChildren();
      const mf = new Miniflare({
        modules: [{ type: 'ESModule', path: 'worker.js', contents: code }],
        compatibilityDate: DATE,
        bindings: worker.bindings,
        host: '127.0.0.1',
        port: 0,
      });
      const url = (await mf.ready).origin;
      const pid = [...workerdChildren()].find((p) => !before.has(p));
      if (pid === undefined) throw new Error('could not find the workerd process miniflare started');
      if (PINNING) spawnSync('taskset', ['-a', '-cp', PINNING.server, String(pid)], { stdio: 'ignore' });
      const first = await fetch(`${url}${PATH}`);
      const body = await first.text();
      started.push({ ...worker, mf, url, pid, bytes: Buffer.byteLength(body), rounds: [], bundle: code.length });
      // Warm-up: the page cached, the code compiled and optimised.
      await drive(`${url}${PATH}`, { connections: CONNECTIONS, durationS: 1 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts one Worker later: no Worker is always measured first or after the same one.
      const turn = [...started.slice(round % started.length), ...started.slice(0, round % started.length)];
      for (const worker of turn) {
        const cpuBefore = cpuNs(worker.pid);
        const driverBefore = process.cpuUsage();
        const t0 = performance.now();
        const result = await drive(`${worker.url}${PATH}`, { connections: CONNECTIONS, durationS: SECONDS });
        const wall = (performance.now() - t0) / 1000;
        const spent = cpuNs(worker.pid) - cpuBefore;
        const driver = process.cpuUsage(driverBefore);
        const requests = Math.round(result.requestsPerSecond * wall);
        worker.rounds.push({
          nsPerRequest: spent / requests,
          requestsPerSecond: result.requestsPerSecond,
          serverShare: spent / 1e9 / wall,
          driverShare: (driver.user + driver.system) / 1e6 / wall,
          failed: result.errors + result.non2xx,
        });
        console.log(
          `round ${round + 1} ${worker.name}: ${us(spent / requests)} µs/request, ${Math.round(result.requestsPerSecond)} req/s`,
        );
      }
    }
  } finally {
    await Promise.all(started.map((w) => w.mf.dispose()));
  }
  writeSection({ example, started });
}

function writeSection({ example, started }) {
  const fixed = median(started.find((w) => w.file === 'fixed.js').rounds.map((r) => r.nsPerRequest));
  const rows = started.map((w) => {
    const ns = median(w.rounds.map((r) => r.nsPerRequest));
    const mean = (key) => w.rounds.reduce((sum, r) => sum + r[key], 0) / w.rounds.length;
    const own = w.file === 'fixed.js' || w.file === 'empty.js' ? '–' : us(ns - fixed);
    return `| ${w.name} | ${w.bytes.toLocaleString('en-US')} B | ${us(ns)} | ${own} | ${w.rounds.map((r) => us(r.nsPerRequest)).join(', ')} | ${Math.round(median(w.rounds.map((r) => r.requestsPerSecond))).toLocaleString('en-US')} | ${Math.round(mean('serverShare') * 100)}% / ${Math.round(mean('driverShare') * 100)}% | ${w.rounds.reduce((s, r) => s + r.failed, 0)} | ${(w.bundle / 1000).toFixed(1)} KB |`;
  });
  const cpuOf = (file, bindings) =>
    median(
      started
        .find((w) => w.file === file && JSON.stringify(w.bindings) === JSON.stringify(bindings))
        .rounds.map((r) => r.nsPerRequest),
    );
  const cached = cpuOf('marquee.js', {});
  const uncached = cpuOf('marquee.js', { CACHE: 'off' });
  const hono = cpuOf('hono.js', {});
  const budget = (ns) => `${((ns / 10_000_000) * 100).toFixed(1)}% of the free plan's 10 ms`;
  const summary =
    `Cached catalog page ${us(cached)} µs a request (${budget(cached)}), ${(cached / hono).toFixed(2)}× Hono's ${us(hono)} µs; ` +
    `built each request ${us(uncached)} µs (${budget(uncached)}), ${(uncached / hono).toFixed(2)}× Hono's. ` +
    `Every figure includes the runtime's own cost, the floor (${us(cpuOf('empty.js', {}))} µs here, much of it miniflare's entry Worker, which Cloudflare's edge replaces).`;
  const pkg = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  const section = [
    '## Cost on a Worker',
    '',
    `Written by \`node bench/worker.js\` (bench/README.md, "Cost on a Worker") on ${new Date().toISOString()}: ${cpus().length} cores, Node ${process.version}, workerd ${pkg('workerd')} through miniflare ${pkg('miniflare')} (compatibility date ${DATE}, no nodejs_compat), hono ${pkg('hono')}; ${describePinning()}. ${ROUNDS} rounds of ${SECONDS} s per Worker, taking turns (each round starting one Worker later), ${CONNECTIONS} keep-alive connections; CPU is every workerd thread's run time (schedstat) over the round, divided by the requests answered. A Worker on the free plan may use 10 ms (10,000 µs) of CPU a request.`,
    '',
    `The page: ${PATH}, 100 films of the HTTP benchmark's data (id, name, poster, genres, year, a description), no Accept-Encoding (on Cloudflare the edge compresses, outside the Worker's time).`,
    '',
    summary,
    '',
    '| Worker | answer | CPU µs/request (median round) | minus the same bytes made once | every round | req/s | CPU workerd / driver | failed | bundle (minified) |',
    '| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |',
    ...rows,
    '',
    `examples/worker bundled for a deploy (esbuild, browser platform, minified): ${(example.bytes / 1000).toFixed(1)} KB, ${(example.gzipBytes / 1000).toFixed(1)} KB gzip (test/runtime-bundle.test.ts fails past 150 KB).`,
    '',
  ].join('\n');
  const file = join(root, 'bench/results.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = text.indexOf('\n## Cost on a Worker\n');
  let next = at === -1 ? -1 : text.indexOf('\n## ', at + 1);
  if (next === -1) next = text.length;
  const updated =
    at === -1 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, at + 1)}${section}${text.slice(next)}`;
  writeFileSync(file, updated.endsWith('\n') ? updated : `${updated}\n`);
  console.log(`wrote the "Cost on a Worker" section of ${file}`);
}

await main();
