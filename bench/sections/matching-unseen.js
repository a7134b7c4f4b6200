/**
 * The matching benchmark's generalisation part (issue 45): the dev set's names written in
 * decorations nobody in this project chose (lib/matching-unseen.js: marks, brackets, order, case
 * and tags drawn at random from a seed, from character classes and shapes), imported country by
 * country through the import API beside the dev set's own two styles (the seen ones), and
 * scored alike. The figure to watch is the gap between seen and unseen.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { add, figures, lineIndex, score } from '../lib/matching-score.js';
import { unseenName, unseenPanel } from '../lib/matching-unseen.js';

/** Seeds of the unseen decorations: at least five. */
export const UNSEEN_SEEDS = [1, 2, 3, 4, 5];

/** Playlists of the dev set's iptv-org names in the decorations of `seed`, beside links to the iptv-org guides. */
function writeUnseen(set, guides, out, seed) {
  if (existsSync(join(out, 'meta.json'))) return;
  mkdirSync(out, { recursive: true });
  for (const [cc, { entries }] of Object.entries(set.countries)) {
    const panel = unseenPanel(seed, cc);
    const names = entries.map((e, i) => unseenName(e[4], cc, i, seed, panel));
    const m3u = ['#EXTM3U'];
    for (const [i, e] of entries.entries()) m3u.push(`${e[0]},${names[i]}`, ...e[1], e[2]);
    writeFileSync(join(out, `playlist_${cc}.m3u`), `${m3u.join('\n')}\n`);
    const truth = entries.map((e, index) => ({ index, name: names[index], truth: e[3] }));
    writeFileSync(join(out, `truth_${cc}.json`), `${JSON.stringify(truth)}\n`);
    const guide = join(out, `guide_${cc}.xml`);
    rmSync(guide, { force: true });
    symlinkSync(join(guides, `guide_${cc}.xml`), guide);
  }
  writeFileSync(join(out, 'meta.json'), readFileSync(join(guides, 'meta.json')));
}

/** Every country of the files in `dir` through `importLiveTv`, scored. */
async function importAll(root, set, dir, db, options = {}) {
  const { importLiveTv } = await import(join(root, 'dist/livetv/index.js'));
  const { openStore } = await import(join(root, 'dist/store/index.js'));
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  const now = Date.parse(`${meta.date}T12:00:00Z`);
  const total = {};
  for (const [cc, { entries }] of Object.entries(set.countries)) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    const store = openStore(db);
    try {
      const result = await importLiveTv(store, {
        playlists: [{ location: join(dir, `playlist_${cc}.m3u`) }],
        guides: [{ location: join(dir, `guide_${cc}.xml`) }],
        now,
        ...options,
      });
      const byLine = lineIndex(entries);
      const answers = {};
      for (const m of result.matches) answers[byLine.get(m.line)] = m.guide;
      const truth = JSON.parse(readFileSync(join(dir, `truth_${cc}.json`), 'utf8'));
      add(total, score(truth, answers));
    } finally {
      store.close();
    }
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  return figures(total);
}

/**
 * Seen styles (the dev set's iptv-org and provider names) and each seed's unseen decorations,
 * with the learned reading on and, for the unseen ones, off (shapes only): precision and recall
 * of each, and the gap of each seed's recall to the seen styles' mean.
 * @example await runGeneralisation({ root, set, dirs, base, log })
 */
export async function runGeneralisation({ root, set, dirs, base, log, seeds = UNSEEN_SEEDS }) {
  const db = join(dirs.work, 'unseen.db');
  const started = performance.now();
  const seen = {};
  for (const style of ['iptv-org', 'provider']) seen[style] = await importAll(root, set, dirs[style], db);
  const seenRecall = (seen['iptv-org'].recall + seen.provider.recall) / 2;
  const unseen = [];
  for (const seed of seeds) {
    const dir = join(base, `unseen-${seed}`);
    writeUnseen(set, dirs['iptv-org'], dir, seed);
    const on = await importAll(root, set, dir, db);
    const shapesOnly = await importAll(root, set, dir, db, { matching: { decoration: false } });
    unseen.push({ seed, on, shapesOnly, gap: seenRecall - on.recall });
    log(
      `matching: unseen decorations, seed ${seed}: precision ${on.precision.toFixed(3)}, recall ${on.recall.toFixed(3)} (shapes only ${shapesOnly.recall.toFixed(3)})`,
    );
  }
  return {
    seeds,
    seen,
    seenRecall,
    unseen,
    maxGap: Math.max(...unseen.map((u) => u.gap)),
    minPrecision: Math.min(...unseen.map((u) => u.on.precision)),
    ms: performance.now() - started,
  };
}
