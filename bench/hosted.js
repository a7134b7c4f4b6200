#!/usr/bin/env node
/**
 * `node bench/hosted.js [--users 200] [--sets 20] [--channels 2000] [--guide-mb 50]`: hosted mode
 * under a crowd. One `marquee serve --hosted` (core 1 when taskset exists) and a source server
 * in this process serving SETS distinct source sets (each a 2,000-channel playlist and a ~50 MB
 * XMLTV guide under URLs of its own; the bytes are the same generated files, so the disk holds
 * them once). USERS users arrive one every 100 ms and configure through POST /configure (JSON),
 * user i taking set i % SETS. Prints the time to a configured install link (p50, p99), the
 * server's peak RSS (VmHWM: its main thread and its import workers), the hosted folder's disk
 * use, and guide pages per second across the sets (20 connections, 10 s, each request a guide
 * page of another set and page). Needs dist/ (`npm run build`). Not part of `npm run bench`.
 */
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { guideStart, isoDay, SEED } from './lib/dataset.js';
import { dataDir } from './lib/prepare.js';
import { startServer, stopAll } from './lib/processes.js';
import { cached, writeM3u, writeXmltv } from './lib/write-data.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    sets: { type: 'string', default: '20' },
    channels: { type: 'string', default: '2000' },
    'guide-mb': { type: 'string', default: '50' },
    'arrival-ms': { type: 'string', default: '100' },
  },
});
const USERS = Number(values.users);
const SETS = Number(values.sets);
const CHANNELS = Number(values.channels);
const start = guideStart();

// Programmes per day chosen so the compact guide comes near the asked size (about 220 bytes a programme).
const perDay = Math.max(4, Math.round((Number(values['guide-mb']) * 1e6) / (CHANNELS * 7 * 220)));
const data = dataDir(root);
const playlist = await cached(join(data, `hosted-${CHANNELS}.m3u`), (p) =>
  writeM3u(p, SEED, { channels: CHANNELS, entries: CHANNELS }),
);
const guide = await cached(join(data, `hosted-${CHANNELS}-${perDay}.xml`), (p) =>
  writeXmltv(p, SEED, { channels: CHANNELS, start, days: 7, perDay, verbosity: 'compact' }),
);

const sources = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0];
  const file = path === '/list.m3u' ? playlist.path : path === '/guide.xml' ? guide.path : undefined;
  if (!file) return res.writeHead(404).end();
  res.writeHead(200, { 'content-length': String(statSync(file).size) });
  createReadStream(file).pipe(res);
});
await new Promise((r) => sources.listen(0, '127.0.0.1', r));
const sourceUrl = `http://127.0.0.1:${sources.address().port}`;

const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-hosted-'));
const settings = join(dir, 'marquee.json');
writeFileSync(
  settings,
  JSON.stringify({
    hosted: { enabled: true, importsPerMinute: 10_000, concurrentImports: 2 },
    // Every user comes from 127.0.0.1 here.
    security: { maxConnectionsPerAddress: 0 },
    log: { requests: false },
  }),
);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(base, body) {
  return new Promise((resolve, reject) => {
    const url = new URL('/configure', base);
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function get(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (c) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const du = (path) => {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((sum, n) => sum + du(join(path, n)), 0) : s.size;
};

try {
  console.log(
    `hosted: ${USERS} users over ${SETS} source sets of ${CHANNELS} channels and a ${Math.round(guide.bytes / 1e6)} MB guide`,
  );
  const server = await startServer(
    process.execPath,
    [join(root, 'bin/marquee.js'), 'serve', '--config', settings, '--db', join(dir, 'marquee.db')].concat([
      '--port',
      '0',
      '--allow-private-sources',
      '--log-format',
      'json',
    ]),
    /manifest: +(\S+)\/manifest\.json/,
    { timeoutMs: 60_000 },
  );
  const base = server.url;
  const began = performance.now();
  const users = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * Number(values['arrival-ms'])));
      const set = i % SETS;
      const body = new URLSearchParams({
        cfg_playlist: `${sourceUrl}/list.m3u?set=${set}`,
        cfg_epg: `${sourceUrl}/guide.xml?set=${set}`,
      }).toString();
      const t0 = performance.now();
      const answer = await post(base, body);
      if (answer.status !== 200) throw new Error(`user ${i}: ${answer.status} ${JSON.stringify(answer.json)}`);
      return { set, ms: performance.now() - t0, manifestUrl: answer.json.manifestUrl, summary: answer.json.summary };
    }),
  );
  const allMs = performance.now() - began;
  const times = users.map((u) => u.ms).sort((a, b) => a - b);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));

  // Guide pages across sets: one user per set, today's guide day, the catalog's pages in turn.
  const links = [...new Map(users.map((u) => [u.set, u.manifestUrl])).values()].map((m) =>
    m.replace(/manifest\.json$/, ''),
  );
  const today = isoDay(Date.now());
  const pages = Math.ceil(CHANNELS / 100);
  let n = 0;
  let bytes = 0;
  let errors = 0;
  const latencies = [];
  const until = performance.now() + 10_000;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async (_, c) => {
      for (let k = c; performance.now() < until; k += 20) {
        const link = links[k % links.length];
        const page = Math.floor(k / links.length) % pages;
        const path = `catalog/tv/mq-tv-channels/date=${today}${page > 0 ? `&skip=${page * 100}` : ''}.json`;
        const t = performance.now();
        const r = await get(`${link}${path}`);
        latencies.push(performance.now() - t);
        if (r.status !== 200) errors++;
        n++;
        bytes += r.bytes;
      }
    }),
  );
  const guideSeconds = (performance.now() - t1) / 1000;
  latencies.sort((a, b) => a - b);
  const hwmAfter = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));
  console.log(
    JSON.stringify(
      {
        users: USERS,
        sets: SETS,
        guideMB: Math.round(guide.bytes / 1e6),
        summaryOfSet0: users[0].summary,
        configuredAllSeconds: Math.round(allMs / 100) / 10,
        timeToInstallLinkMs: { p50: Math.round(quantile(times, 0.5)), p99: Math.round(quantile(times, 0.99)) },
        peakRssMB: {
          configuring: hwm ? Math.round(Number(hwm[1]) / 1024) : undefined,
          overall: hwmAfter ? Math.round(Number(hwmAfter[1]) / 1024) : undefined,
        },
        diskMB: Math.round(du(`${join(dir, 'marquee.db')}.hosted`) / 1e6),
        guidePages: {
          requestsPerSecond: Math.round(n / guideSeconds),
          p50Ms: Math.round(quantile(latencies, 0.5) * 10) / 10,
          p99Ms: Math.round(quantile(latencies, 0.99) * 10) / 10,
          meanKB: Math.round(bytes / Math.max(1, n) / 1024),
          errors,
        },
      },
      null,
      2,
    ),
  );
  await server.stop();
} finally {
  agent.destroy();
  sources.close();
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
