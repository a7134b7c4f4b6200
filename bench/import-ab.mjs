// Two builds' `marquee import` side by side in one run, alternating (ABBA...), each under
// /usr/bin/time -v: wall, CPU (user + system) and peak RSS, the ratios round by round and of the
// medians, and each run's summary line (the same channels and programmes on both sides). Used for
// issue 48's import-memory check (docs/reliability.md):
//   git archive main | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   (cd /tmp/before && npx tsc -p tsconfig.build.json) && npm run build
//   ROUNDS=4 node bench/import-ab.mjs /tmp/before .              # the import benchmark's data
//   ROUNDS=3 SET=matching node bench/import-ab.mjs /tmp/before .  # the 50,000 × 20,000 matching import
// The data is the benchmark's own (bench/.data, generated once a day).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { guideStart } from './lib/dataset.js';
import { MATCHING_SIZES, writeMatchingGuide, writeMatchingPlaylist } from './lib/matching-data.js';
import { dataDir, importData, SEED } from './lib/prepare.js';
import { cached } from './lib/write-data.js';

const [before, after] = process.argv.slice(2).map((d) => resolve(d));
if (!before || !after) throw new Error('usage: node bench/import-ab.mjs BEFORE_ROOT AFTER_ROOT');
const root = resolve(import.meta.dirname, '..');
const dir = dataDir(root);
const rounds = Number(process.env.ROUNDS ?? 4);

async function files() {
  if (process.env.SET === 'matching') {
    const n = MATCHING_SIZES.playlistChannels * MATCHING_SIZES.entriesPerChannel;
    const playlist = await cached(join(dir, `matching-${n}-2.m3u`), (p) => writeMatchingPlaylist(p, SEED));
    const guide = await cached(join(dir, `matching-${MATCHING_SIZES.guideChannels}-2.xml`), (p) =>
      writeMatchingGuide(p, SEED, guideStart()),
    );
    return [playlist.path, guide.path];
  }
  const { playlist, epg } = await importData(dir, guideStart());
  return [playlist.path, epg.path];
}

function removeStore(db) {
  for (const suffix of ['', '-wal', '-shm', '.keys.json']) rmSync(db + suffix, { force: true });
  rmSync(`${db}.sources`, { recursive: true, force: true });
}

function importOnce(build, db, playlist, guide) {
  removeStore(db);
  const args = ['-v', process.execPath, join(build, 'bin/marquee.js'), 'import', '--db', db];
  const run = spawnSync('/usr/bin/time', [...args, '--playlist', playlist, '--epg', guide], { encoding: 'utf8' });
  removeStore(db);
  const field = (re) => Number(re.exec(run.stderr)?.[1]);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([\d.]+)/.exec(run.stderr);
  if (run.status !== 0 || !wall) throw new Error(`${build}: marquee import failed\n${run.stdout}${run.stderr}`);
  return {
    wall: Number(wall[1]) * 60 + Number(wall[2]),
    cpu: field(/User time \(seconds\): ([\d.]+)/) + field(/System time \(seconds\): ([\d.]+)/),
    rss: field(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
    summary: /live TV:[^\n;]*;[^\n;]*;[^\n;]*/.exec(run.stdout)?.[0] ?? '',
  };
}

const [playlist, guide] = await files();
const runs = { before: [], after: [] };
const builds = { before, after };
for (let r = 0; r < rounds; r++) {
  for (const side of r % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
    const m = importOnce(builds[side], join(dir, `ab-${side}.db`), playlist, guide);
    runs[side].push(m);
    console.log(
      `round ${r + 1} ${side}: ${m.wall.toFixed(2)} s, CPU ${m.cpu.toFixed(2)} s, ${m.rss.toFixed(0)} MB; ${m.summary}`,
    );
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const ratio = (key) => (median(runs.after.map((m) => m[key])) / median(runs.before.map((m) => m[key]))).toFixed(3);
const rounds2 = runs.after.map((m, i) => (m.wall / runs.before[i].wall).toFixed(2)).join(', ');
console.log(`after/before: wall ${ratio('wall')}× (rounds ${rounds2}), CPU ${ratio('cpu')}×`);
console.log(
  `peak RSS before ${runs.before.map((m) => m.rss.toFixed(0)).join(', ')} MB, after ${runs.after.map((m) => m.rss.toFixed(0)).join(', ')} MB`,
);
