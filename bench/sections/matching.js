/**
 * Name matching benchmark (issue 36).
 *
 * 1. The labelled dev set (../shared/corpus/matching) through the real import: per country,
 *    `marquee import --json` of its playlist and guide, the guide channel of every entry read from
 *    `livetv.matches`, scored as the corpus's score.mjs scores (precision, recall, false matches).
 *    Three ways of writing the names: iptv-org's and providers' (the corpus's make.mjs), and the
 *    same names rewritten in styles the dev set does not use (lib/matching-styles.js).
 * 2. Leave half the countries out: the threshold and margin chosen on one half (best F1 over a
 *    grid, through the import API) and checked on the other, against the shipped values.
 * 3. Speed: a 50,000-entry playlist against a 20,000-channel guide (lib/matching-data.js), names
 *    only, `marquee import` with the scored stage, with its matches given as tvg-ids and the stage
 *    off (the same programmes stored: the stage's own cost), and with the stage off; with names
 *    read by their shapes only (`decoration: false`: the learned reading's and the ties' cost), on
 *    the panel-style playlist and on the same channels in decorations nobody chose; in
 *    alternating rounds, each under /usr/bin/time -v.
 * 4. Generalisation (issue 45, matching-unseen.js): the dev set in decorations drawn at random
 *    from seeds, beside the seen styles. 5. Hostile names (issue 48, matching-bounds.js).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { guideStart, SEED } from '../lib/dataset.js';
import { MATCHING_SIZES, writeMatchingGuide, writeMatchingPlaylist } from '../lib/matching-data.js';
import { add, figures, lineIndex, score } from '../lib/matching-score.js';
import { rewriteName } from '../lib/matching-styles.js';
import { unseenName, unseenPanel } from '../lib/matching-unseen.js';
import { runMeasured } from '../lib/processes.js';
import { cached } from '../lib/write-data.js';
import { runBounds } from './matching-bounds.js';
import { runGeneralisation } from './matching-unseen.js';

const STYLES = ['iptv-org', 'provider', 'rewritten'];
const THRESHOLDS = [0.75, 0.8, 0.85, 0.9];
const MARGINS = [0.05, 0.1, 0.15];
/** The shipped values (src/livetv/match.ts DEFAULT_MATCHING). */
const SHIPPED = { threshold: 0.85, margin: 0.1 };

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 256 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      // `marquee import` exits 1 when a source is kept or contributes nothing: still a report.
      if (error && error.code !== 1) reject(new Error(`${args.join(' ')}: ${stderr || error.message}`));
      else resolve({ stdout, code: error ? error.code : 0 });
    });
  });
}

/** The dev set's files in `out` for one style: the corpus's make.mjs, or our rewriting. */
async function devFiles(corpusDir, set, out, style, date) {
  if (existsSync(join(out, 'meta.json'))) return;
  if (style !== 'rewritten') {
    await run(process.execPath, [join(corpusDir, 'make.mjs'), out, '--style', style, '--date', date]);
    return;
  }
  // The iptv-org guides, and playlists of the iptv-org names rewritten.
  await run(process.execPath, [join(corpusDir, 'make.mjs'), out, '--style', 'iptv-org', '--date', date]);
  for (const [cc, { entries }] of Object.entries(set.countries)) {
    const names = entries.map((e, i) => rewriteName(e[4], cc, i));
    const m3u = ['#EXTM3U'];
    for (const [i, e] of entries.entries()) m3u.push(`${e[0]},${names[i]}`, ...e[1], e[2]);
    writeFileSync(join(out, `playlist_${cc}.m3u`), `${m3u.join('\n')}\n`);
    const truth = entries.map((e, index) => ({ index, name: names[index], truth: e[3] }));
    writeFileSync(join(out, `truth_${cc}.json`), `${JSON.stringify(truth, null, 1)}\n`);
  }
}

/** Countries in two halves: alternately, in alphabetical order. */
function halves(countries) {
  const sorted = [...countries].sort();
  return { A: sorted.filter((_, i) => i % 2 === 0), B: sorted.filter((_, i) => i % 2 === 1) };
}

/** Each style through `marquee import --json`, per country. */
async function devSet(root, set, dirs, log) {
  const db = join(dirs.work, 'dev.db');
  const out = {};
  for (const style of STYLES) {
    const perCountry = {};
    const started = performance.now();
    for (const [cc, { entries }] of Object.entries(set.countries)) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      const { stdout } = await run(process.execPath, [
        join(root, 'bin/marquee.js'),
        'import',
        '--db',
        db,
        '--playlist',
        join(dirs[style], `playlist_${cc}.m3u`),
        '--epg',
        join(dirs[style], `guide_${cc}.xml`),
        '--json',
      ]);
      const report = JSON.parse(stdout);
      const byLine = lineIndex(entries);
      const answers = {};
      for (const m of report.livetv.matches) answers[byLine.get(m.line)] = m.guide;
      const truth = JSON.parse(readFileSync(join(dirs[style], `truth_${cc}.json`), 'utf8'));
      perCountry[cc] = score(truth, answers);
    }
    const h = halves(Object.keys(perCountry));
    const sum = (list) => figures(list.reduce((t, cc) => add(t, perCountry[cc]), {}));
    out[style] = { all: sum(Object.keys(perCountry)), A: sum(h.A), B: sum(h.B), perCountry };
    log(
      `matching: ${style}: precision ${out[style].all.precision.toFixed(3)}, recall ${out[style].all.recall.toFixed(3)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  return out;
}

/**
 * Leave half the countries out: per (threshold, margin) of the grid, the counts per country
 * (iptv-org and provider names pooled) through the import API; the best F1 of each half is then
 * checked on the other.
 */
async function leaveHalfOut(root, set, dirs, log) {
  const { importLiveTv } = await import(join(root, 'dist/livetv/index.js'));
  const { openStore } = await import(join(root, 'dist/store/index.js'));
  const h = halves(Object.keys(set.countries));
  const db = join(dirs.work, 'tune.db');
  const grid = [];
  for (const threshold of THRESHOLDS) {
    for (const margin of MARGINS) {
      const perCountry = {};
      for (const style of ['iptv-org', 'provider']) {
        const meta = JSON.parse(readFileSync(join(dirs[style], 'meta.json'), 'utf8'));
        const now = Date.parse(`${meta.date}T12:00:00Z`);
        for (const [cc, { entries }] of Object.entries(set.countries)) {
          for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
          const store = openStore(db);
          try {
            const result = await importLiveTv(store, {
              playlists: [{ location: join(dirs[style], `playlist_${cc}.m3u`) }],
              guides: [{ location: join(dirs[style], `guide_${cc}.xml`) }],
              matching: { threshold, margin },
              now,
            });
            const byLine = lineIndex(entries);
            const answers = {};
            for (const m of result.matches) answers[byLine.get(m.line)] = m.guide;
            const truth = JSON.parse(readFileSync(join(dirs[style], `truth_${cc}.json`), 'utf8'));
            perCountry[cc] = add(perCountry[cc] ?? {}, score(truth, answers));
          } finally {
            store.close();
          }
        }
      }
      const sum = (list) => figures(list.reduce((t, cc) => add(t, perCountry[cc]), {}));
      grid.push({ threshold, margin, A: sum(h.A), B: sum(h.B) });
    }
    log(`matching: leave-half-out grid, threshold ${threshold} done`);
  }
  const best = (half) => grid.reduce((a, b) => (b[half].f1 > a[half].f1 ? b : a));
  const shipped = grid.find((g) => g.threshold === SHIPPED.threshold && g.margin === SHIPPED.margin);
  const tunedA = best('A');
  const tunedB = best('B');
  return {
    halves: h,
    grid,
    shipped,
    tunedOnA: { threshold: tunedA.threshold, margin: tunedA.margin, onA: tunedA.A, onB: tunedA.B },
    tunedOnB: { threshold: tunedB.threshold, margin: tunedB.margin, onB: tunedB.B, onA: tunedB.A },
  };
}

/**
 * The playlist again, each entry the scored stage matched in `report` given its guide channel as
 * a tvg-id: imported with the scored stage off, it finds and stores the same guide channels by an
 * exact rule, so its import does everything the scored stage's does but the stage itself.
 */
function writeGiven(playlistPath, report, path) {
  const given = new Map();
  for (const m of report.matches) if (m.rule === 'scored') given.set(m.line, m);
  // `guide@n<k>`, k one number per channel: found by the `feed` rule, and two channels the stage
  // matched to one guide channel stay two channels (one tvg-id would make them one).
  const feeds = new Map();
  const lines = readFileSync(playlistPath, 'utf8').split('\n');
  for (const [line, m] of given) {
    if (!feeds.has(m.channel)) feeds.set(m.channel, feeds.size);
    const id = `${m.guide}@n${feeds.get(m.channel)}`;
    lines[line - 1] = lines[line - 1].replace('#EXTINF:-1 ', `#EXTINF:-1 tvg-id="${id}" `);
  }
  writeFileSync(path, lines.join('\n'));
  return given.size;
}

/**
 * The 50,000 × 20,000 import three ways, alternating: with the scored stage (the default); with
 * the same matches given (the scored stage's matches as tvg-ids, the stage off: the same
 * programmes stored, the stage's own work not done); and with the stage off (its matches lost,
 * so fewer programmes stored too).
 */
async function speed(root, dir, work, rounds, log) {
  const start = guideStart();
  // `-2`: the data since brand names are distinct (lib/matching-data.js).
  const playlist = await cached(join(dir, 'matching-50000-2.m3u'), (p) => writeMatchingPlaylist(p, SEED));
  const guide = await cached(join(dir, 'matching-20000-2.xml'), (p) => writeMatchingGuide(p, SEED, start));
  const off = join(work, 'matching-off.json');
  writeFileSync(off, JSON.stringify({ livetv: { matching: { scored: false } } }));
  const on = join(work, 'matching-on.json');
  writeFileSync(on, JSON.stringify({}));
  const shapes = join(work, 'matching-shapes.json');
  writeFileSync(shapes, JSON.stringify({ livetv: { matching: { decoration: false } } }));
  // The same channels written in decorations nobody chose (one panel of seed 1): the learned
  // reading applies to nearly every name.
  const panel = unseenPanel(1, 'de');
  const decorated = await cached(join(dir, 'matching-50000-2-decorated.m3u'), (p) =>
    writeMatchingPlaylist(p, SEED, (c, j) => unseenName(c.base, 'de', j, 1, panel)),
  );
  const givenPlaylist = join(work, 'matching-50000-given.m3u');
  let givenEntries = 0;
  const db = join(work, 'speed.db');
  const VARIANTS = {
    on: [playlist.path, on],
    given: [givenPlaylist, off],
    off: [playlist.path, off],
    shapes: [playlist.path, shapes],
    decorated: [decorated.path, on],
    decoratedShapes: [decorated.path, shapes],
  };
  const runs = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const [variant, [list, config]] of Object.entries(VARIANTS)) {
      log(`matching: round ${round}, ${variant}: marquee import of the 50,000-entry playlist and 20,000-channel guide`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      const args = ['import', '--db', db, '--playlist', list, '--epg', guide.path, '--json'];
      const r = await runMeasured(process.execPath, [join(root, 'bin/marquee.js'), ...args, '--config', config], {
        cores: 'all',
      });
      const report = JSON.parse(r.stdout).livetv;
      if (variant === 'on' && round === 1) givenEntries = writeGiven(playlist.path, report, givenPlaylist);
      runs[variant].push({
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        peakRssMB: r.peakRssKiB / 1024,
        counts: report.counts,
        matchedBy: report.matchedBy,
        importMs: report.durationMs,
      });
    }
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const best = (list) => ({
    ...list.reduce((a, b) => (b.wallMs < a.wallMs ? b : a)),
    walls: list.map((r) => r.wallMs),
  });
  const peak = (list) => Math.max(...list.map((r) => r.peakRssMB));
  return {
    playlistBytes: playlist.bytes,
    guideBytes: guide.bytes,
    sizes: MATCHING_SIZES,
    rounds,
    givenEntries,
    on: best(runs.on),
    given: best(runs.given),
    off: best(runs.off),
    shapes: best(runs.shapes),
    decorated: best(runs.decorated),
    decoratedShapes: best(runs.decoratedShapes),
    decoratedBytes: decorated.bytes,
    /** The learned reading's and the ties' cost: with it against names read by their shapes only, round by round. */
    learnedRatios: runs.on.map((r, i) => r.wallMs / runs.shapes[i].wallMs),
    learnedCpuRatios: runs.on.map((r, i) => r.cpuMs / runs.shapes[i].cpuMs),
    decoratedRatios: runs.decorated.map((r, i) => r.wallMs / runs.decoratedShapes[i].wallMs),
    decoratedCpuRatios: runs.decorated.map((r, i) => r.cpuMs / runs.decoratedShapes[i].cpuMs),
    /** The stage's own cost: with it against the same matches given, round by round. */
    ratios: runs.on.map((r, i) => r.wallMs / runs.given[i].wallMs),
    cpuRatios: runs.on.map((r, i) => r.cpuMs / runs.given[i].cpuMs),
    /** With it against without it (fewer programmes stored without). */
    offRatios: runs.on.map((r, i) => r.wallMs / runs.off[i].wallMs),
    peakRssMB: Object.fromEntries(Object.entries(runs).map(([v, list]) => [v, peak(list)])),
  };
}

/** @example const result = await runMatching({ root, dir, log: console.log, quick: false }) */
export async function runMatching({ root, dir, log, quick }) {
  // The corpus MARQUEE_CORPUS names (as the tests read it), else ../shared/corpus beside the repository.
  const corpusDir = join(process.env.MARQUEE_CORPUS || join(root, '..', 'shared', 'corpus'), 'matching');
  const set = JSON.parse(gunzipSync(readFileSync(join(corpusDir, 'dev.json.gz'))).toString('utf8'));
  const date = new Date().toISOString().slice(0, 10);
  const base = join(dir, 'matching');
  const dirs = { work: join(base, 'work') };
  mkdirSync(dirs.work, { recursive: true });
  for (const style of STYLES) {
    dirs[style] = join(base, style);
    await devFiles(corpusDir, set, dirs[style], style, date);
  }
  const styles = await devSet(root, set, dirs, log);
  const generalisation = await runGeneralisation({ root, set, dirs, base, log });
  const tuning = quick ? undefined : await leaveHalfOut(root, set, dirs, log);
  const large = await speed(root, dir, dirs.work, quick ? 1 : 3, log);
  const bounds = await runBounds({
    root,
    dir,
    work: dirs.work,
    seed: SEED,
    start: guideStart(),
    guide: join(dir, 'matching-20000-2.xml'),
    playlist: join(dir, 'matching-50000-2.m3u'),
    log,
  });
  return { date, styles, generalisation, tuning, large, bounds };
}
