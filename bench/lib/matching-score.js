/**
 * Scoring the matching dev set as the corpus's score.mjs does: counts per country (entries whose
 * truth is "?" left out), summed, and precision, recall and F1 of the sums.
 */

/** Line of each entry's #EXTINF in the playlists make.mjs writes → the entry's index. */
export function lineIndex(entries) {
  const byLine = new Map();
  let line = 2;
  entries.forEach((e, i) => {
    byLine.set(line, i);
    line += 2 + e[1].length;
  });
  return byLine;
}

/** Counts as score.mjs counts them (entries whose truth is "?" left out). */
export function score(truth, answers) {
  const s = { entries: 0, matchable: 0, matched: 0, correct: 0, wrong: 0, falseMatches: 0 };
  for (const t of truth) {
    if (t.truth === '?') continue;
    const got = answers[t.index] ?? null;
    s.entries++;
    if (t.truth) s.matchable++;
    if (got) s.matched++;
    if (got && got === t.truth) s.correct++;
    else if (got && t.truth) s.wrong++;
    else if (got) s.falseMatches++;
  }
  return s;
}

export function add(total, s) {
  for (const k of Object.keys(s)) total[k] = (total[k] ?? 0) + s[k];
  return total;
}

/** Precision, recall and F1 of summed counts. */
export function figures(s) {
  const precision = s.matched ? s.correct / s.matched : 0;
  const recall = s.matchable ? s.correct / s.matchable : 0;
  return { ...s, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
