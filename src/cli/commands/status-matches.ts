/**
 * `marquee status --matches`: what of the served import's matching needs a look. The channels
 * no rule found a guide channel for, and the scored matches without a comfortable lead, each
 * with its closest guide channels (id and display name) and the `guideOverrides` line to settle
 * it. That line pins a guide channel only when one leads clearly (`clearLead`); otherwise it
 * offers `null` and names the candidates worth a look, so a tie or a weak score is never copied
 * in as a pin by mistake.
 */
import type { DecorationReport, SourceReport } from '../../livetv/index.js';
import type { ChannelMatch, MatchCandidate, Store } from '../../store/index.js';

/** A scored match is comfortable at this score or more, with at least this lead over the next candidate. */
const COMFORTABLE_SCORE = 0.9;
const COMFORTABLE_LEAD = 0.2;

/**
 * A pin is offered for the best guide channel at this score or more, with at least this lead over
 * the next one. On the labelled dev set (docs/livetv.md, "Reviewing matches") the best candidate
 * of a channel to review was its own guide channel 93% of the time where the channel has one in
 * the guide (69% of all such offers: the others have none), against 36% for leads under 0.1
 * (ties of siblings: `Euronews` in three languages) and 2% below a score of 0.5.
 */
export const PIN_SCORE = 0.8;
export const PIN_LEAD = 0.1;
/** Candidates at this score or more are named as choices when none leads clearly; below, only shown. */
export const CHOICE_SCORE = 0.5;

/** One channel to review, as `status --matches --json` prints it. */
interface Review {
  readonly channel: string;
  readonly name: string;
  /** The guide channel a scored match chose (absent: none found), and its display name. */
  readonly guide?: string;
  readonly guideName?: string;
  readonly score?: number;
  readonly candidates: readonly MatchCandidate[];
  /** Does one guide channel lead clearly (then `pin` names it)? */
  readonly clear: boolean;
  /** The settings entry to copy into `livetv.guideOverrides`: the clear leader, else `null`. */
  readonly pin: string;
  /** When none leads clearly: the guide channel ids worth a look (the entry offers `null` or one of these). */
  readonly choices: readonly string[];
}

export interface MatchesStatus {
  readonly channels: number;
  /** Channels with a guide channel, and how many of them by score. */
  readonly withGuide: number;
  readonly scored: number;
  /** Channels an override says have no guide (`null`). */
  readonly pinnedToNone: number;
  readonly withoutGuide: readonly Review[];
  readonly review: readonly Review[];
  /** What each playlist of the served import was found to write around its names (docs/livetv.md). */
  readonly decorations: readonly { readonly source: string; readonly decoration: DecorationReport }[];
}

/** Reads the served import's matches and picks what needs review. */
export function matchesStatus(store: Store): MatchesStatus {
  const all = store.channelMatches();
  const withoutGuide: Review[] = [];
  const review: Review[] = [];
  let withGuide = 0;
  let scored = 0;
  let pinnedToNone = 0;
  for (const m of all) {
    if (m.guide !== undefined) withGuide++;
    if (m.rule === 'scored') scored++;
    if (m.rule === 'override' && m.guide === undefined) pinnedToNone++;
    if (m.rule === undefined) withoutGuide.push(reviewOf(m));
    else if (m.rule === 'scored' && !comfortable(m)) review.push(reviewOf(m));
  }
  return {
    channels: all.length,
    withGuide,
    scored,
    pinnedToNone,
    withoutGuide,
    review,
    decorations: decorationsOf(store),
  };
}

function comfortable(m: ChannelMatch): boolean {
  const next = m.candidates?.[0]?.score ?? 0;
  return (m.score ?? 0) >= COMFORTABLE_SCORE && (m.score ?? 0) - next >= COMFORTABLE_LEAD;
}

/**
 * Does the first of `ranked` (the chosen guide channel, then the candidates best first) lead
 * clearly: at least PIN_SCORE, and PIN_LEAD above every other?
 * @example clearLead([{ id: 'g3', score: 0.75 }, { id: 'g22', score: 0.75 }]) // false
 */
export function clearLead(ranked: readonly { readonly score: number }[]): boolean {
  const [first, ...rest] = ranked;
  if (first === undefined || first.score < PIN_SCORE - 1e-9) return false;
  const next = Math.max(0, ...rest.map((c) => c.score));
  return first.score - next >= PIN_LEAD - 1e-9;
}

function reviewOf(m: ChannelMatch): Review {
  const candidates = m.candidates ?? [];
  const ranked: MatchCandidate[] =
    m.guide !== undefined
      ? [
          { id: m.guide, ...(m.guideName !== undefined ? { name: m.guideName } : {}), score: m.score ?? 0 },
          ...candidates,
        ]
      : [...candidates];
  const clear = clearLead(ranked);
  const target = clear ? ranked[0]!.id : undefined;
  return {
    channel: m.channelId,
    name: m.name,
    ...(m.guide !== undefined ? { guide: m.guide } : {}),
    ...(m.guideName !== undefined ? { guideName: m.guideName } : {}),
    ...(m.score !== undefined ? { score: m.score } : {}),
    candidates,
    clear,
    pin: `${JSON.stringify(m.pin)}: ${target === undefined ? 'null' : JSON.stringify(target)}`,
    choices: clear ? [] : ranked.filter((c) => c.score >= CHOICE_SCORE - 1e-9).map((c) => c.id),
  };
}

/** `g3 "Euronews Italiano"`: a guide channel by its id and display name. */
function guideChannel(id: string, name: string | undefined): string {
  return name === undefined ? id : `${id} ${JSON.stringify(name)}`;
}

/** The candidates, each with its name and score; those of a failed guide marked. */
function candidateList(candidates: readonly MatchCandidate[]): string {
  if (candidates.length === 0) return 'none';
  return candidates
    .map(
      (c) =>
        `${guideChannel(c.id, c.name)} ${c.score.toFixed(2)}${c.failedGuide !== undefined ? ' (failed guide)' : ''}`,
    )
    .join(', ');
}

/** What the `pin it` line says beside the entry. */
function pinNote(r: Review, matched: boolean): string {
  if (r.clear) return matched ? '' : '   (null: it has no guide)';
  if (r.choices.length === 0) {
    return r.candidates.length === 0
      ? '   (null: it has no guide)'
      : '   (null: it has no guide; none of these is close enough to offer)';
  }
  const ids = r.choices.map((id) => JSON.stringify(id));
  const choice = ids.length === 1 ? ids[0] : `one of ${ids.join(', ')}`;
  return `   (null: it has no guide; or ${choice}: none leads clearly)`;
}

/** Lines for people. */
export function matchesLines(s: MatchesStatus): string[] {
  if (s.channels === 0) {
    return ['matches: none recorded yet (run `marquee import`; stores imported by an older Marquee have none)'];
  }
  const lines = [
    `matches: ${s.channels} channels; ${s.withGuide} with a guide channel (${s.scored} by score), ` +
      `${s.withoutGuide.length} without${s.pinnedToNone > 0 ? ` (and ${s.pinnedToNone} pinned to none)` : ''}; ` +
      `${s.review.length} scored ${s.review.length === 1 ? 'match' : 'matches'} to review`,
  ];
  const failed = new Set<string>();
  for (const r of s.withoutGuide) {
    lines.push(`NONE   ${JSON.stringify(r.name)} (${r.channel})`);
    lines.push(`         closest: ${candidateList(r.candidates)}`);
    lines.push(`         pin it:  livetv.guideOverrides: { ${r.pin} }${pinNote(r, false)}`);
    for (const c of r.candidates) if (c.failedGuide !== undefined) failed.add(c.failedGuide);
  }
  for (const r of s.review) {
    lines.push(
      `REVIEW ${JSON.stringify(r.name)} (${r.channel}) → ${guideChannel(r.guide ?? '', r.guideName)} (${r.score?.toFixed(2)})`,
    );
    lines.push(`         next:    ${candidateList(r.candidates)}`);
    lines.push(`         pin it:  livetv.guideOverrides: { ${r.pin} }${pinNote(r, true)}`);
    for (const c of r.candidates) if (c.failedGuide !== undefined) failed.add(c.failedGuide);
  }
  for (const guide of failed) {
    lines.push(
      `(failed guide): guide ${guide} failed as a whole in the last import (\`marquee status\` says why): its channels are listed for review, not matched`,
    );
  }
  lines.push(...decorationLines(s));
  return lines;
}

/** The playlists' decoration as the served import (the newest that succeeded) reported it. */
function decorationsOf(store: Store): MatchesStatus['decorations'] {
  const served = store.importHistory(10).find((r) => r.status === 'ok');
  const details = (served?.report as { details?: { sources?: unknown } } | undefined)?.details;
  const sources = Array.isArray(details?.sources) ? (details.sources as SourceReport[]) : [];
  return sources.flatMap((s) => (s.decoration ? [{ source: s.location, decoration: s.decoration }] : []));
}

/** One line per playlist: `decoration: tv.m3u (812 names): prefixes "◉ CA" (812); tags fhd (400); learned: after "nft"`. */
function decorationLines(s: MatchesStatus): string[] {
  return s.decorations.map(({ source, decoration: d }) => {
    const learned = [
      ...d.learned.leading.map((w) => `before ${JSON.stringify(w)}`),
      ...d.learned.trailing.map((w) => `after ${JSON.stringify(w)}`),
      ...(d.learned.bareResolutions ? ['bare resolutions'] : []),
      ...(d.learned.numbering ? ['numbering'] : []),
    ];
    const parts = [
      ...(d.prefixes.length > 0
        ? [`prefixes ${d.prefixes.map((p) => `${JSON.stringify(p.text)} (${p.names})`).join(', ')}`]
        : []),
      ...(d.tags.length > 0 ? [`tags ${d.tags.map((t) => `${t.text} (${t.names})`).join(', ')}`] : []),
      ...(learned.length > 0 ? [`learned: ${learned.join(', ')}`] : []),
    ];
    return `decoration: ${source} (${d.names} names): ${parts.join('; ') || 'none'}`;
  });
}
