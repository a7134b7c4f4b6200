#!/usr/bin/env node
/**
 * `node bench/review-pins.js [--corpus DIR]`: how often the pin `marquee status --matches` offers
 * is right (issue 46). The labelled dev set (the corpus's matching/, both ways of writing names)
 * goes through `marquee import --json`, country by country; of the entries the review lists (no
 * guide channel, or a scored match without a comfortable lead), the first candidate is the pin
 * offered when it leads clearly. Printed: for the shipped bar (PIN_SCORE, PIN_LEAD of
 * dist/cli/commands/status-matches.js) and a grid around it, the pins offered and how many name
 * the entry's own guide channel, overall and where the entry has one in the guide; and the same
 * for the ties and the weak scores the bar refuses. Needs dist/ (`npm run build`). Not part of
 * `npm run bench` (about a minute; precision, not speed).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { corpus: { type: 'string' } } });
const corpus = values.corpus ?? process.env.MARQUEE_CORPUS ?? join(root, '..', 'shared', 'corpus');
const { CHOICE_SCORE, PIN_LEAD, PIN_SCORE, clearLead } = await import(
  join(root, 'dist', 'cli', 'commands', 'status-matches.js')
);
/** status-matches.ts's bar for a scored match that needs no review. */
const COMFORTABLE = { score: 0.9, lead: 0.2 };

function run(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      // `marquee import` exits 1 when a source contributes nothing: still a report.
      if (error && error.code !== 1) reject(new Error(`${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Every entry of one style, with its match and its truth. */
async function entries(style, work) {
  const set = JSON.parse(gunzipSync(readFileSync(join(corpus, 'matching', 'dev.json.gz'))).toString('utf8'));
  const out = join(work, style);
  await run(process.execPath, [join(corpus, 'matching', 'make.mjs'), out, '--style', style]);
  const rows = [];
  for (const cc of Object.keys(set.countries)) {
    const db = join(work, `${style}-${cc}.db`);
    const report = JSON.parse(
      await run(process.execPath, [
        join(root, 'bin', 'marquee.js'),
        'import',
        '--db',
        db,
        '--playlist',
        join(out, `playlist_${cc}.m3u`),
        '--epg',
        join(out, `guide_${cc}.xml`),
        '--json',
      ]),
    );
    const truth = JSON.parse(readFileSync(join(out, `truth_${cc}.json`), 'utf8'));
    // One match per entry, in file order, as truth lists them.
    for (const [i, m] of report.livetv.matches.entries()) rows.push({ ...m, truth: truth[i].truth });
  }
  return rows;
}

/** The entries the review lists, each with its candidates ranked as the review ranks them. */
function reviewed(rows) {
  return rows
    .filter((r) => r.truth !== '?')
    .filter(
      (r) =>
        r.rule === null ||
        (r.rule === 'scored' &&
          !(r.score >= COMFORTABLE.score && r.score - (r.candidates[0]?.score ?? 0) >= COMFORTABLE.lead)),
    )
    .map((r) => ({
      truth: r.truth,
      ranked: r.rule === 'scored' ? [{ id: r.guide, score: r.score }, ...r.candidates] : r.candidates,
    }))
    .filter((r) => r.ranked.length > 0);
}

function tally(list, offer) {
  const t = { offered: 0, right: 0, withGuide: 0, rightWithGuide: 0 };
  for (const r of list) {
    if (!offer(r.ranked)) continue;
    t.offered++;
    const right = r.ranked[0].id === r.truth;
    if (right) t.right++;
    if (r.truth) {
      t.withGuide++;
      if (right) t.rightWithGuide++;
    }
  }
  return t;
}

const pct = (a, b) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(0)}%`);
const line = (name, t) =>
  `${name.padEnd(34)} ${String(t.offered).padStart(5)} ${String(t.right).padStart(6)} ${pct(t.right, t.offered).padStart(5)}   ${pct(t.rightWithGuide, t.withGuide).padStart(5)}`;

const work = mkdtempSync(join(tmpdir(), 'marquee-bench-review-'));
try {
  for (const style of ['iptv-org', 'provider']) {
    const list = reviewed(await entries(style, work));
    console.log(`\n${style} names: ${list.length} entries listed for review with a candidate`);
    console.log(`${'offered as a pin when'.padEnd(34)} offers  right   all   with a guide channel`);
    console.log(line(`shipped: ≥ ${PIN_SCORE}, lead ≥ ${PIN_LEAD}`, tally(list, clearLead)));
    for (const score of [0.6, 0.7, 0.75, 0.8, 0.85]) {
      for (const lead of [0.05, 0.1, 0.2]) {
        const offer = (ranked) => ranked[0].score >= score && ranked[0].score - (ranked[1]?.score ?? 0) >= lead;
        console.log(line(`  ≥ ${score}, lead ≥ ${lead}`, tally(list, offer)));
      }
    }
    const lead = (ranked) => ranked[0].score - (ranked[1]?.score ?? 0);
    console.log(
      line(
        `refused: a tie (lead < ${PIN_LEAD}, ≥ ${CHOICE_SCORE})`,
        tally(list, (r) => r[0].score >= CHOICE_SCORE && lead(r) < PIN_LEAD),
      ),
    );
    console.log(
      line(
        `refused: weak (< ${CHOICE_SCORE})`,
        tally(list, (r) => r[0].score < CHOICE_SCORE),
      ),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
