#!/usr/bin/env node
/**
 * Soak: `marquee serve` (from dist/) on 127.0.0.1 over generated sources (300 channels, a 3-day
 * guide of ~21,600 programmes, 500 films + the demo library) with refreshes running, first driven
 * flat out for a few seconds to measure the peak request rate, then at half of it for --minutes
 * over a mixed path list (manifest, channel list, groups, search, guide days, library feeds,
 * genres, search, meta, streams). The guide file is rewritten between refreshes so every refresh
 * really imports. Prints: requests, rate held, errors (non-2xx, socket errors, timeouts), latency,
 * the server's RSS at start and end, event-loop stalls over 100 ms measured inside the server
 * (loop-monitor.mjs, preloaded), and the refreshes that ran.
 *
 *   node bench/reliability/soak.mjs [--minutes 10] [--refresh-hours 0.01] [--peak-seconds 8] [--connections 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const ROOT = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'refresh-hours': { type: 'string', default: '0.01' },
    'peak-seconds': { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
  },
});
const minutes = Number(values.minutes);
const refreshHours = Number(values['refresh-hours']);
const connections = Number(values.connections);

const dir = mkdtempSync(join(tmpdir(), 'marquee-soak-'));
const HOUR = 3_600_000;
const CHANNELS = 300;

function writeSources(generation) {
  const playlist = ['#EXTM3U'];
  for (let i = 0; i < CHANNELS; i++) {
    playlist.push(`#EXTINF:-1 tvg-id="soak${i}.tv" group-title="Group ${i % 12}",Soak Channel ${i}`);
    playlist.push(`https://streams.example/soak/${i}.m3u8`);
  }
  writeFileSync(join(dir, 'tv.m3u'), `${playlist.join('\n')}\n`);
  const start = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;
  const time = (ms) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)} +0000`;
  const guide = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (let i = 0; i < CHANNELS; i++)
    guide.push(`<channel id="soak${i}.tv"><display-name>Soak Channel ${i}</display-name></channel>`);
  for (let i = 0; i < CHANNELS; i++) {
    for (let h = 0; h < 72; h++) {
      const s = start + h * HOUR;
      guide.push(
        `<programme start="${time(s)}" stop="${time(s + HOUR)}" channel="soak${i}.tv"><title>Show ${h} on ${i}</title>` +
          `<desc>Generation ${generation}: programme ${h} of channel ${i}.</desc><category>Cat ${h % 7}</category></programme>`,
      );
    }
  }
  guide.push('</tv>');
  writeFileSync(join(dir, 'guide.xml'), guide.join('\n'));
}

function writeLibrary() {
  const genres = ['Drama', 'Comedy', 'Action & Adventure', 'Documentary', 'Science Fiction'];
  const items = Array.from({ length: 500 }, (_, i) => ({
    id: `tt8${String(i).padStart(6, '0')}`,
    type: 'movie',
    name: `Soak Film ${i}`,
    released: `${1990 + (i % 30)}-01-01`,
    imdbRating: (i % 10) + 0.5,
    genres: [genres[i % genres.length]],
    description: `Film number ${i} of the soak library.`,
    streams: [{ url: `https://media.example/soak/${i}.mp4`, name: 'Soak' }],
  }));
  writeFileSync(join(dir, 'films.json'), JSON.stringify(items));
}

writeSources(0);
writeLibrary();
const statsFile = join(dir, 'loop.jsonl');
const server = spawn(
  process.execPath,
  [
    '--import',
    join(import.meta.dirname, 'loop-monitor.mjs'),
    join(ROOT, 'bin', 'marquee.js'),
    'serve',
    '--port',
    '0',
    '--db',
    join(dir, 'soak.db'),
    '--playlist',
    join(dir, 'tv.m3u'),
    '--epg',
    join(dir, 'guide.xml'),
    '--library',
    join(dir, 'films.json'),
    '--library',
    join(ROOT, 'examples', 'library', 'library.json'),
    '--refresh-hours',
    String(refreshHours),
    '--quiet',
    '--log-format',
    'json',
  ],
  { cwd: dir, env: { ...process.env, MARQUEE_LOOP_STATS: statsFile }, stdio: ['ignore', 'pipe', 'pipe'] },
);
let log = '';
server.stdout.on('data', (d) => {
  log += d;
});
server.stderr.on('data', (d) => {
  log += d;
});
const exited = new Promise((resolve) => server.on('exit', resolve));

const base = await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    const m = /manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/.exec(log);
    if (m) {
      clearInterval(timer);
      resolve(m[1]);
    } else if (server.exitCode !== null) reject(new Error(`serve exited:\n${log}`));
  }, 50);
});

/** The mixed path list, read from the running add-on as a client would. */
async function pathList() {
  const get = async (p) => {
    const r = await fetch(base + p);
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
    return r.json();
  };
  const manifest = await get('/manifest.json');
  const paths = ['/manifest.json'];
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10);
  for (const c of manifest.catalogs) {
    const b = `/catalog/${c.type}/${encodeURIComponent(c.id)}`;
    paths.push(`${b}.json`, `${b}/skip=100.json`);
    for (const e of c.extra ?? []) {
      if (e.name === 'genre')
        for (const g of (e.options ?? []).slice(0, 6)) paths.push(`${b}/genre=${encodeURIComponent(g)}.json`);
      if (e.name === 'search') paths.push(`${b}/search=soak.json`, `${b}/search=film%201.json`);
      if (e.name === 'date')
        paths.push(`${b}/date=${today}.json`, `${b}/date=${tomorrow}.json`, `${b}/date=${today}&skip=100.json`);
    }
  }
  const metas = [];
  for (const p of paths.filter((x) => x.startsWith('/catalog/') && !x.includes('date='))) {
    for (const m of (await get(p)).metas.slice(0, 5)) metas.push(m);
  }
  for (const m of metas.slice(0, 40))
    paths.push(
      `/meta/${m.type}/${encodeURIComponent(m.id)}.json`,
      `/stream/${m.type}/${encodeURIComponent(m.id)}.json`,
    );
  return [...new Set(paths)];
}
const paths = await pathList();

function rss() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function run(options) {
  let i = 0;
  return autocannon({
    url: base,
    connections,
    timeout: 10,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
    ...options,
  });
}

const mb = (b) => `${(b / 1_048_576).toFixed(1)} MB`;
console.log(`soak: ${paths.length} paths at ${base}, refresh every ${refreshHours} h, ${minutes} min at half the peak`);
const warm = await run({ duration: 2 });
const peak = await run({ duration: Number(values['peak-seconds']) });
const peakRps = Math.round(peak.requests.average);
console.log(
  `peak: ${peakRps} req/s (warm-up ${Math.round(warm.requests.average)}), errors ${peak.errors}, non-2xx ${peak.non2xx}`,
);

const target = Math.max(1, Math.round(peakRps / 2));
const rssStart = rss();
const samples = [];
const sampler = setInterval(() => samples.push(rss()), 10_000);
// Rewrite the guide between refreshes so each refresh imports instead of answering "unchanged".
let generation = 1;
const rewriter = setInterval(() => writeSources(generation++), Math.max(5_000, (refreshHours * HOUR) / 2));
const soakStart = Date.now();
const soak = await run({ duration: Math.round(minutes * 60), overallRate: target });
const soakEnd = Date.now();
clearInterval(sampler);
clearInterval(rewriter);
const rssEnd = rss();

server.kill('SIGTERM');
const code = await exited;
const loop = readFileSync(statsFile, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))
  .at(-1);
// Stalls of the soak itself: not the start-up import, the warm-up or the flat-out peak measurement.
const stalls = loop.stallTimes.filter((s) => s.at >= soakStart && s.at <= soakEnd);
const refreshes = log.split('\n').filter((l) => l.includes('refresh: live TV'));
const imported = refreshes.filter((l) => /channels \(/.test(l)).length;
const failed = refreshes.filter((l) => /import failed/.test(l)).length;

const figures = {
  minutes,
  paths: paths.length,
  peakRps,
  targetRps: target,
  heldRps: Math.round(soak.requests.average),
  requests: soak.requests.total,
  errors: soak.errors,
  timeouts: soak.timeouts,
  non2xx: soak.non2xx,
  latencyMs: { p50: soak.latency.p50, p99: soak.latency.p99, max: soak.latency.max },
  rss: {
    start: mb(rssStart),
    end: mb(rssEnd),
    max: mb(Math.max(rssStart, ...samples, rssEnd)),
    // One sample per minute: flat or growing is seen here, not in two end points.
    perMinute: samples.filter((_, i) => i % 6 === 5).map(mb),
  },
  loop: {
    stallsOver100ms: stalls.length,
    stalls: stalls.map((s) => ({ at: new Date(s.at).toISOString(), ms: s.ms })),
    stallsBeforeSoak: loop.stallTimes.filter((s) => s.at < soakStart).length,
    p99DelayMsWholeRun: loop.p99Ms,
    worstDelayMsWholeRun: loop.worstMs,
  },
  refreshes: { imported, failed, unchanged: refreshes.length - imported - failed },
  serveExitCode: code,
};
console.log(JSON.stringify(figures, null, 2));
console.log(`refresh log lines:\n${refreshes.map((l) => JSON.parse(l).msg).join('\n')}`);
rmSync(dir, { recursive: true, force: true });
const ok = soak.errors === 0 && soak.timeouts === 0 && soak.non2xx === 0 && stalls.length === 0 && code === 0;
process.exitCode = ok ? 0 : 1;
