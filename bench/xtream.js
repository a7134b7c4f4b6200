#!/usr/bin/env node
/**
 * `node bench/xtream.js [--live N] [--movies N] [--series N]`: `marquee import --xtream` of a
 * fake 50,000-stream panel (40,000 live channels with a 12-hour guide, 8,000 movies with details,
 * 2,000 series of 16 episodes by default), end to end in its own process on core 1 under
 * /usr/bin/time -v: wall time and peak RSS. Needs dist/ (`npm run build`). Not part of `npm run
 * bench` (one run takes minutes: 10,000 detail calls).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runMeasured, stopAll } from './lib/processes.js';
import { storeBytes } from './sections/import.js';
import { startBenchPanel } from './servers/xtream-panel.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    live: { type: 'string', default: '40000' },
    movies: { type: 'string', default: '8000' },
    series: { type: 'string', default: '2000' },
  },
});
const counts = { live: Number(values.live), movies: Number(values.movies), series: Number(values.series) };
const panel = await startBenchPanel(counts);
const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-xtream-'));
const db = join(dir, 'xtream.db');
try {
  console.log(
    `xtream: marquee import of a panel of ${counts.live} live, ${counts.movies} movies, ${counts.series} series`,
  );
  const run = await runMeasured(
    process.execPath,
    [join(root, 'bin/marquee.js'), 'import', '--db', db, '--xtream', panel.account, '--json'],
    { timeoutMs: 900_000 },
  );
  const report = JSON.parse(run.stdout);
  const live = report.livetv;
  const library = report.library;
  console.log(
    JSON.stringify(
      {
        wallSeconds: Math.round(run.wallMs / 100) / 10,
        peakRssMB: run.peakRssKiB === undefined ? undefined : Math.round(run.peakRssKiB / 1024),
        channels: live?.counts?.channels,
        programmes: live?.counts?.programmes,
        items: library?.report?.counts?.items,
        storeMB: Math.round(storeBytes(db) / 1e6),
      },
      null,
      2,
    ),
  );
} finally {
  await panel.close();
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
