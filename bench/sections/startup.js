/**
 * The large store (10,000 channels × 7 days × 48 programmes): time from `marquee serve` process
 * start to the first answered request, and guide-page latency at low load in server time (the
 * `ms` of each request in the JSON request log) and at the client.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS, fetchAnswer } from '../lib/answers.js';
import { distFingerprint } from '../lib/build.js';
import { guideStart, isoDay, largeData, SIZES } from '../lib/prepare.js';
import { freePort, runMeasured, spawnPinned, startServer, stop } from '../lib/processes.js';
import { storeBytes } from './import.js';

const PAGE = 100;

/** The large store, imported through `marquee import`, reused while dist/ and the data are unchanged. */
async function largeStore(root, dir, log) {
  const data = await largeData(dir, guideStart());
  const db = join(dir, `large-${distFingerprint(root)}.db`);
  const sources = ['--playlist', data.playlist.path, '--epg', data.epg.path, '--config', data.config];
  if (existsSync(db)) return { db, sources, imported: undefined };
  // A store imported by an earlier build is about 1 GB: keep one.
  for (const name of readdirSync(dir))
    if (/^large-[0-9a-f]+\.db/.test(name)) rmSync(join(dir, name), { recursive: true, force: true });
  log(
    `startup: importing the 10,000-channel store (${(data.epg.bytes / 1e6).toFixed(0)} MB guide), reused by later runs`,
  );
  const temp = `${db}.importing`;
  const run = await runMeasured(process.execPath, [join(root, 'bin/marquee.js'), 'import', '--db', temp, ...sources]);
  // Renamed only when complete, so an interrupted import is never reused.
  for (const suffix of ['-wal', '-shm', '']) if (existsSync(temp + suffix)) renameSync(temp + suffix, db + suffix);
  return {
    db,
    sources,
    imported: { wallMs: run.wallMs, peakRssMB: run.peakRssKiB / 1024, guideBytes: data.epg.bytes },
  };
}

async function pollFirstAnswer(url, child, deadlineMs) {
  const started = performance.now();
  while (performance.now() - started < deadlineMs) {
    if (child.exitCode !== null) throw new Error(`marquee serve exited with ${child.exitCode} before answering`);
    try {
      const answer = await fetchAnswer(url, false, 2_000);
      if (answer.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`no answer from ${url} within ${deadlineMs} ms`);
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export const stats = (values) => ({
  n: values.length,
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: Math.max(...values),
});

/** @example const result = await runStartup({ root, dir, runs: 5, days: 7, log: console.log }) */
export async function runStartup({ root, dir, runs, days, hotRequests, log }) {
  const { db, sources, imported } = await largeStore(root, dir, log);
  const serveArgs = [join(root, 'bin/marquee.js'), 'serve', '--db', db, ...sources, '--refresh-hours', '0'];

  // Start-up: spawn, then ask for the manifest every few ms until it is answered.
  const startups = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawnPinned(process.execPath, [...serveArgs, '--port', String(port), '--quiet']);
    child.stdout.resume();
    child.stderr.resume();
    try {
      await pollFirstAnswer(`http://127.0.0.1:${port}/manifest.json`, child, 30_000);
      startups.push(performance.now() - started);
    } finally {
      await stop(child);
    }
  }
  log(`startup: first answer after ${startups.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  // Guide pages at low load: one request at a time, server time from the JSON request log.
  const serverMs = new Map();
  const server = await startServer(
    process.execPath,
    [...serveArgs, '--port', '0', '--log-format', 'json'],
    /manifest:\s+(http:\/\/127\.0\.0\.1:\d+)\/manifest\.json/,
    {
      onLine: (line) => {
        if (!line.startsWith('{')) return;
        const record = JSON.parse(line);
        if (typeof record.ms === 'number') serverMs.set(record.requestId, record);
      },
    },
  );
  try {
    const first = guideStart();
    const cold = { server: [], client: [], bytes: 0 };
    // Every page of every day once: each is built from the store (the response cache has not seen it).
    for (let d = 0; d < days; d++) {
      for (let skip = 0; skip < SIZES.largeChannels; skip += PAGE) {
        const path = `/catalog/tv/mq-tv-channels/date=${isoDay(first + d * DAY_MS)}${skip ? `&skip=${skip}` : ''}.json`;
        const t = performance.now();
        const answer = await fetchAnswer(server.url + path);
        cold.client.push(performance.now() - t);
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
        cold.bytes = Math.max(cold.bytes, answer.bytes);
      }
    }
    const hot = { client: [] };
    const hotPath = `/catalog/tv/mq-tv-channels/date=${isoDay(first + DAY_MS)}&skip=5000.json`;
    for (let i = 0; i < hotRequests; i++) {
      const t = performance.now();
      await fetchAnswer(server.url + hotPath);
      hot.client.push(performance.now() - t);
    }
    // Let the last log lines arrive.
    await new Promise((r) => setTimeout(r, 200));
    const records = [...serverMs.values()].filter((r) => r.path?.startsWith('/catalog/tv/'));
    const coldCount = cold.client.length;
    cold.server = records.slice(0, coldCount).map((r) => r.ms);
    hot.server = records.slice(coldCount).map((r) => r.ms);
    return {
      imported,
      storeBytes: storeBytes(db),
      startupMs: stats(startups),
      guide: {
        pages: coldCount,
        maxPageBytes: cold.bytes,
        coldServer: stats(cold.server),
        coldClient: stats(cold.client),
        hotServer: stats(hot.server),
        hotClient: stats(hot.client),
      },
    };
  } finally {
    await server.stop();
  }
}
