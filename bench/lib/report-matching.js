/**
 * The matching section's tables for issues 45 and 48: generalisation to decorations nobody chose,
 * the learned reading's cost, and hostile names (report.js writes the rest).
 */
const f0 = (n) => (n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US'));
const f1 = (n) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(1));
const f3 = (n) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(3));
const x = (n) => (n === undefined || Number.isNaN(n) ? '–' : `${n.toFixed(2)}×`);
const check = (ok) => (ok ? 'met' : '**missed**');
const pr = (s) => `${f3(s.precision)} / ${f3(s.recall)}`;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

/** Rows of the targets table. */
export function matchingTargets(m) {
  const rows = [];
  const g = m.generalisation;
  if (g) {
    rows.push(
      `| unseen decorations: recall within 0.03 of the seen styles, at precision ≥ 0.97, over ≥ 5 seeds | ${g.unseen.length} seeds: recall ${g.unseen.map((u) => f3(u.on.recall)).join(', ')} against ${f3(g.seenRecall)} seen (gap at most ${f3(g.maxGap)}); precision ${f3(g.minPrecision)}-${f3(Math.max(...g.unseen.map((u) => u.on.precision)))}, the seen styles' own ${f3(g.seen['iptv-org'].precision)} / ${f3(g.seen.provider.precision)} | recall ${check(g.maxGap <= 0.03 && g.unseen.length >= 5)}, precision ${check(g.minPrecision >= 0.97)} |`,
    );
  }
  const l = m.large;
  if (l?.learnedRatios) {
    const r = median(l.learnedRatios);
    rows.push(
      `| the learned reading and the ties add ≤ 10% to the 50,000 × 20,000 import | ${x(r)} the wall time of the same import with names read by their shapes only (median round; all: ${l.learnedRatios.map(x).join(', ')}); decorated names ${l.decoratedRatios.map(x).join(', ')} | ${check(r <= 1.1)} |`,
    );
  }
  const b = m.bounds?.cases[0];
  if (b) {
    rows.push(
      `| 500 playlist names of 60 KB against a 20,000-channel guide ≤ 30 s | ${b.finished ? `${f1(b.wallMs / 1000)} s` : `still running at the ${f0(m.bounds.limitMs / 1000)} s limit`} | ${check(b.finished && b.wallMs <= 30_000)} |`,
    );
  }
  return rows;
}

/** The generalisation, learned-cost and hostile-names tables. */
export function matchingMoreTables(m) {
  const lines = [];
  const g = m.generalisation;
  if (g) {
    lines.push(
      `Generalisation (issue 45): the dev set's names written in decorations nobody in this project chose (bench/lib/matching-unseen.js: per seed and country a panel drawn at random: marks from Unicode's symbol blocks and ASCII punctuation, bracket pairs from the Ps/Pe classes, the code before, after or between marks, in brackets, as a flag or with no mark, capitals, lower case or small capitals, tags drawn from shapes: \`\\d{3,4}[pi]?\` with any digits, \`\\d{2,3} ?FPS\`, \`H.?26[45]\`, HEVC, UHD, 4K, HDR, random letters in superscript or small capitals, and a random word of the panel's own on many names), every country through the import API, against the dev set's own two styles (seen). "Shapes only": the same names with \`livetv.matching.decoration: false\` (nothing learned from the playlist).`,
      '',
      '| names | precision / recall | recall, shapes only | recall gap to the seen styles | wrong guide channel | matched, should have none |',
      '| --- | --- | --- | ---: | ---: | ---: |',
      ...['iptv-org', 'provider'].map(
        (style) =>
          `| seen: ${style} | ${pr(g.seen[style])} | | | ${f0(g.seen[style].wrong)} | ${f0(g.seen[style].falseMatches)} |`,
      ),
      ...g.unseen.map(
        (u) =>
          `| unseen, seed ${u.seed} | ${pr(u.on)} | ${f3(u.shapesOnly.recall)} | ${f3(u.gap)} | ${f0(u.on.wrong)} | ${f0(u.on.falseMatches)} |`,
      ),
      '',
    );
  }
  const l = m.large;
  if (l?.learnedRatios) {
    const row = (name, r) =>
      `| ${name} | ${f1(r.wallMs / 1000)} s (${r.walls.map((w) => f1(w / 1000)).join(', ')}) | ${f1(r.cpuMs / 1000)} s | ${f0(r.peakRssMB)} MB | ${f0(r.counts.matchedChannels)} with a guide (${f0(r.matchedBy.scored)} by score) |`;
    lines.push(
      `The learned reading's cost (issue 45): the same 50,000 × 20,000 import with names read by their shapes only (\`decoration: false\`), round by round with/without: ${l.learnedRatios.map(x).join(', ')} the wall time (CPU ${l.learnedCpuRatios.map(x).join(', ')}); and the same channels written in decorations nobody chose (one panel of the generalisation's seed 1, ${f1(l.decoratedBytes / 1e6)} MB), where the playlist's decoration is learned and read on nearly every name: ${l.decoratedRatios.map(x).join(', ')} (CPU ${l.decoratedCpuRatios.map(x).join(', ')}; without it fewer channels find a guide, so fewer programmes are stored).`,
      '',
      '| | wall | CPU | peak RSS | result |',
      '| --- | ---: | ---: | ---: | --- |',
      row('panel-style names, learned reading on (the default)', l.on),
      row('panel-style names, shapes only', l.shapes),
      row('decorated names, learned reading on', l.decorated),
      row('decorated names, shapes only', l.decoratedShapes),
      '',
    );
  }
  const b = m.bounds;
  if (b) {
    lines.push(
      `Hostile names (issue 48, item 3; bench/sections/matching-bounds.js): \`marquee import --json\` on every core, each in its own process, stopped at ${f0(b.limitMs / 1000)} s.`,
      '',
      '| case | wall | CPU | peak RSS | result |',
      '| --- | ---: | ---: | ---: | --- |',
      ...b.cases.map(
        (c) =>
          `| ${c.name} | ${c.finished ? `${f1(c.wallMs / 1000)} s` : `stopped at ${f0(b.limitMs / 1000)} s`} | ${f1(c.cpuMs / 1000)} s | ${f0(c.peakRssMB)} MB | ${c.finished ? `${f0(c.channels)} channels, ${f0(c.matched)} with a guide` : 'did not finish'} |`,
      ),
      '',
    );
  }
  return lines;
}
