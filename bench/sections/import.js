/**
 * Import benchmark: `marquee import` of the ~370 MB 2,000-channel guide and the 50,000-entry
 * playlist, end to end in its own process (on every core, on one, and of the guide gzipped),
 * against @iptv/xmltv parsing the same guide (parse only) in its own process on core 1. Each
 * under /usr/bin/time -v (peak RSS, CPU time).
 */
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { guideStart, importData } from '../lib/prepare.js';
import { runMeasured } from '../lib/processes.js';
import { cached } from '../lib/write-data.js';

const MB = 1_000_000;

/** Size of a SQLite store with its WAL and shared-memory files. */
export function storeBytes(db) {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(db + suffix)) total += statSync(db + suffix).size;
  return total;
}

function removeStore(db) {
  for (const suffix of ['', '-wal', '-shm', '.keys.json']) rmSync(db + suffix, { force: true });
}

/** The import guide gzipped (level 6, as guides are usually published), made once beside it. */
async function gzipped(epg) {
  return cached(`${epg.path}.gz`, async (path) => {
    await pipeline(createReadStream(epg.path), createGzip({ level: 6 }), createWriteStream(path));
    return statSync(path).size;
  });
}

/**
 * The import variants, measured in alternating rounds (this machine's speed drifts within
 * minutes): the plain guide on every core (`marquee import` parses it in a thread of its own),
 * the same on one core (the thread is not used there), and the gzip guide on every core.
 */
const VARIANTS = [
  { key: 'twoCores', cores: 'all', guide: 'plain' },
  { key: 'oneCore', cores: 'one', guide: 'plain' },
  { key: 'gzip', cores: 'all', guide: 'gzip' },
];
const ROUNDS = 2;

async function importOnce(root, db, playlist, guide, cores) {
  removeStore(db);
  const run = await runMeasured(
    process.execPath,
    [join(root, 'bin/marquee.js'), 'import', '--db', db, '--playlist', playlist, '--epg', guide, '--json'],
    { cores },
  );
  const report = JSON.parse(run.stdout);
  if (report.livetv?.status !== 'imported')
    throw new Error(`marquee import did not import:\n${run.stdout.slice(0, 2000)}`);
  const store = storeBytes(db);
  removeStore(db);
  return { ...run, counts: report.livetv.counts, storeBytes: store };
}

/** @example const result = await runImport({ root, dir, log: console.log }) */
export async function runImport({ root, dir, log }) {
  const data = await importData(dir, guideStart());
  const gz = await gzipped(data.epg);
  const db = join(dir, 'import-marquee.db');
  const inputBytes = data.epg.bytes + data.playlist.bytes;
  const runs = Object.fromEntries(VARIANTS.map((v) => [v.key, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of VARIANTS) {
      log(
        `import: round ${round}, ${v.key}: marquee import of ${(data.epg.bytes / MB).toFixed(0)} MB guide${v.guide === 'gzip' ? ` (gzip, ${(gz.bytes / MB).toFixed(0)} MB)` : ''} + playlist`,
      );
      const run = await importOnce(root, db, data.playlist.path, v.guide === 'gzip' ? gz.path : data.epg.path, v.cores);
      runs[v.key].push(run);
    }
  }
  const summary = (list) => {
    const best = list.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
    return {
      wallMs: best.wallMs,
      walls: list.map((r) => r.wallMs),
      cpuMs: best.cpuMs,
      mbPerSecond: inputBytes / MB / (best.wallMs / 1000),
      peakRssMB: Math.max(...list.map((r) => r.peakRssKiB / 1024)),
      storeBytes: best.storeBytes,
      counts: best.counts,
    };
  };
  const variants = Object.fromEntries(VARIANTS.map((v) => [v.key, summary(runs[v.key])]));
  const ratios = runs.twoCores.map((r, i) => r.wallMs / runs.oneCore[i].wallMs);

  log('import: @iptv/xmltv parse-only of the same guide');
  const iptv = await runMeasured(process.execPath, [
    // Its DOM of the whole guide does not fit the default heap; give it room rather than a crash.
    '--max-old-space-size=16384',
    join(root, 'bench/servers/iptv-parse.js'),
    data.epg.path,
  ]);
  const parsed = JSON.parse(iptv.stdout.trim().split('\n').pop());

  return {
    guideBytes: data.epg.bytes,
    gzipBytes: gz.bytes,
    playlistBytes: data.playlist.bytes,
    rounds: ROUNDS,
    marquee: variants.twoCores,
    oneCore: variants.oneCore,
    gzip: variants.gzip,
    twoCoreRatios: ratios,
    iptv: {
      wallMs: iptv.wallMs,
      readMs: parsed.readMs,
      parseMs: parsed.parseMs,
      mbPerSecondParse: data.epg.bytes / MB / (parsed.parseMs / 1000),
      mbPerSecondWall: data.epg.bytes / MB / (iptv.wallMs / 1000),
      peakRssMB: iptv.peakRssKiB / 1024,
      programmes: parsed.programmes,
      channels: parsed.channels,
    },
  };
}
