/**
 * `marquee status --matches`: what of the served import's matching needs a look. The channels
 * no rule found a guide channel for, and the scored matches without a comfortable lead, each
 * with its closest guide channels and the `guideOverrides` line that would pin it.
 */
import type { DecorationReport, SourceReport } from '../../livetv/index.js';
import type { ChannelMatch, Store } from '../../store/index.js';

/** A scored match is comfortable at this score or more, with at least this lead over the next candidate. */
const COMFORTABLE_SCORE = 0.9;
const COMFORTABLE_LEAD = 0.2;

/** One channel to review, as `status --matches --json` prints it. */
interface Review {
  readonly channel: string;
  readonly name: string;
  /** The guide channel a scored match chose (absent: none found). */
  readonly guide?: string;
  readonly score?: number;
  readonly candidates: readonly { readonly id: string; readonly score: number }[];
  /** The settings line that pins it to its best guess (`livetv.guideOverrides`). */
  readonly pin: string;
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

function reviewOf(m: ChannelMatch): Review {
  const candidates = m.candidates ?? [];
  const target = m.guide ?? candidates[0]?.id;
  return {
    channel: m.channelId,
    name: m.name,
    ...(m.guide !== undefined ? { guide: m.guide } : {}),
    ...(m.score !== undefined ? { score: m.score } : {}),
    candidates,
    pin: `${JSON.stringify(m.pin)}: ${target === undefined ? 'null' : JSON.stringify(target)}`,
  };
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
  const candidates = (r: Review) =>
    r.candidates.length === 0 ? 'none' : r.candidates.map((c) => `${c.id} ${c.score.toFixed(2)}`).join(', ');
  for (const r of s.withoutGuide) {
    lines.push(`NONE   ${JSON.stringify(r.name)} (${r.channel})`);
    lines.push(`         closest: ${candidates(r)}`);
    lines.push(`         pin it:  livetv.guideOverrides: { ${r.pin} }   (null: it has no guide)`);
  }
  for (const r of s.review) {
    lines.push(`REVIEW ${JSON.stringify(r.name)} (${r.channel}) → ${r.guide} (${r.score?.toFixed(2)})`);
    lines.push(`         next:    ${candidates(r)}`);
    lines.push(`         pin it:  livetv.guideOverrides: { ${r.pin} }`);
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
