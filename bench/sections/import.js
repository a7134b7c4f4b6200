/**
 * Import benchmark: `marquee import` of the ~370 MB 2,000-channel guide and the 50,000-entry
 * playlist, end to end in its own process, against @iptv/xmltv parsing the same guide (parse
 * only) in its own process. Both run on core 1 under /usr/bin/time -v (peak RSS).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { guideStart, importData } from '../lib/prepare.js';
import { runMeasured } from '../lib/processes.js';

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

/** @example const result = await runImport({ root, dir, log: console.log }) */
export async function runImport({ root, dir, log }) {
  const data = await importData(dir, guideStart());
  const db = join(dir, 'import-marquee.db');
  removeStore(db);
  log(`import: marquee import of ${(data.epg.bytes / MB).toFixed(0)} MB guide + playlist`);
  const marquee = await runMeasured(process.execPath, [
    join(root, 'bin/marquee.js'),
    'import',
    '--db',
    db,
    '--playlist',
    data.playlist.path,
    '--epg',
    data.epg.path,
    '--json',
  ]);
  const report = JSON.parse(marquee.stdout);
  if (report.livetv?.status !== 'imported')
    throw new Error(`marquee import did not import:\n${marquee.stdout.slice(0, 2000)}`);
  const store = storeBytes(db);
  removeStore(db);

  log('import: @iptv/xmltv parse-only of the same guide');
  const iptv = await runMeasured(process.execPath, [
    // Its DOM of the whole guide does not fit the default heap; give it room rather than a crash.
    '--max-old-space-size=16384',
    join(root, 'bench/servers/iptv-parse.js'),
    data.epg.path,
  ]);
  const parsed = JSON.parse(iptv.stdout.trim().split('\n').pop());

  const inputBytes = data.epg.bytes + data.playlist.bytes;
  return {
    guideBytes: data.epg.bytes,
    playlistBytes: data.playlist.bytes,
    marquee: {
      wallMs: marquee.wallMs,
      mbPerSecond: inputBytes / MB / (marquee.wallMs / 1000),
      peakRssMB: marquee.peakRssKiB / 1024,
      storeBytes: store,
      counts: report.livetv.counts,
    },
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
