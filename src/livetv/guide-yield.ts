/**
 * Why a guide read in full gives our channels nothing, in plain words (issue 36): its programmes
 * all ended before the served window (an out-of-date file), or all start after it, or none of its
 * channels matches a playlist channel (then the closest pairs of names are named, to pin one with
 * `guideOverrides` or fix a name). Such a guide is a failed source: its last good data is kept.
 */
import { formatCount } from '../store/index.js';
import type { GuideTally } from './guide.js';
import type { GuideIndex, MatchDemand, MatchSubject } from './match.js';

/** What judging a guide that gives nothing needs of the import. */
export interface YieldContext {
  readonly index: GuideIndex;
  readonly demand: MatchDemand;
  readonly subjects: readonly MatchSubject[];
  /** The served window (epoch ms). */
  readonly window: { readonly from: number; readonly to: number };
  /** Guide channel ids some playlist channel resolved to (unshifted). */
  readonly shown: ReadonlySet<string>;
}

/** Guide channels whose names are compared with the playlist's for the "closest" pairs, at most. */
const CLOSEST_CHANNELS = 5_000;
/** Least score a pair needs to be named as close. */
const CLOSEST_FLOOR = 0.2;

/**
 * Why guide `tally` gives nothing, or undefined when it gives something (`matched` programmes
 * for our channels in the window) or holds no programme at all (said elsewhere).
 * @example nothingReason(tally, 0, ctx) // 'gives nothing: its 318 programmes all ended before 2026-11-25 (the newest ended 2026-05-12): the file is out of date'
 */
export function nothingReason(tally: GuideTally, matched: number, ctx: YieldContext): string | undefined {
  if (matched > 0 || tally.programmes === 0) return undefined;
  const { from, to } = ctx.window;
  const n = formatCount(tally.programmes);
  if (tally.inWindowAll === 0) {
    if (tally.latestStop <= from) {
      return `gives nothing: its ${n} programmes all ended before ${day(from)} (the newest ended ${day(tally.latestStop)}): the file is out of date`;
    }
    if (tally.earliestStart >= to) {
      return `gives nothing: its ${n} programmes all start after ${day(to)} (the earliest starts ${day(tally.earliestStart)})`;
    }
    return `gives nothing: none of its ${n} programmes is between ${day(from)} and ${day(to)}`;
  }
  let shown = 0;
  for (const id of tally.channelIds) if (ctx.shown.has(id)) shown++;
  if (shown === 0) {
    const pairs = closest(tally.channelIds, ctx);
    return `gives nothing: none of its ${formatCount(tally.channelIds.size)} channels matches a playlist channel${
      pairs.length > 0 ? `; closest: ${pairs.join(', ')}` : ''
    }`;
  }
  return `gives nothing: the ${formatCount(shown)} of its channels that playlist channels show have no programme between ${day(from)} and ${day(to)}`;
}

/** Up to three pairs `"BBC One" for "UK: BBC ONE FHD" (0.62)`, closest first. */
function closest(ids: Iterable<string>, ctx: YieldContext): string[] {
  const pairs: { guide: string; name: string; score: number }[] = [];
  let looked = 0;
  for (const id of ids) {
    if (++looked > CLOSEST_CHANNELS) break;
    const names = ctx.index.namesOf(id);
    if (names === undefined) continue;
    const best = ctx.demand.closest(names.forms, CLOSEST_FLOOR);
    if (best === undefined) continue;
    pairs.push({ guide: names.text, name: ctx.subjects[best.subject]!.name, score: best.score });
  }
  return pairs
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((p) => `${quote(p.guide)} for ${quote(p.name)} (${p.score.toFixed(2)})`);
}

function quote(text: string): string {
  const clipped = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `"${clipped}"`;
}

/** Epoch ms → `2026-11-25`. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
