/**
 * The rules every backend judges its sources by (docs/reliability.md): a source keeps its last
 * good contribution when it cannot be read, is not its format, yields nothing, or yields less
 * than `minYieldRatio` of its last good import, unless the operator accepts the shrink. The lines
 * here are what the import report, `serve`'s log and `marquee status` say about a source.
 */
import type { SourceAttempt, SourceCounts, SourceState } from './sources.js';

/** How strict the shrink guard is, and which sources the operator lets shrink this time. */
export interface YieldPolicy {
  /** A source yielding less than this share of its last good import is kept. 0 turns it off. */
  readonly minYieldRatio: number;
  /** True for every source (`--accept-shrink`), or the locations / labels accepted. */
  readonly acceptShrink: boolean | readonly string[];
}

export const DEFAULT_MIN_YIELD_RATIO = 0.5;

/** The policy of import options `{ minYieldRatio, acceptShrink }`, checked. */
export function yieldPolicy(options: {
  readonly minYieldRatio?: number;
  readonly acceptShrink?: boolean | readonly string[];
}): YieldPolicy {
  const ratio = options.minYieldRatio ?? DEFAULT_MIN_YIELD_RATIO;
  if (!(ratio >= 0 && ratio <= 1)) throw new RangeError(`minYieldRatio must be between 0 and 1, got ${ratio}`);
  return { minYieldRatio: ratio, acceptShrink: options.acceptShrink ?? false };
}

/** Does the operator accept a shrink of the source at `location` (shown as `label`)? */
export function acceptsShrink(policy: YieldPolicy, location: string, label: string): boolean {
  const accepted = policy.acceptShrink;
  return accepted === true || (Array.isArray(accepted) && (accepted.includes(location) || accepted.includes(label)));
}

/**
 * Why a source yielding `count` (counted as `field` of its counts, shown as `unit`) has shrunk
 * too far from its last good import; undefined when it has not, or the operator accepts it.
 * Falling to 0 from a last good above 0 is a shrink even with the ratio guard off.
 * @example shrinkReason(state, 'programmes', 'programmes for our channels', 0, policy, url, label)
 * // 'yields 0 programmes for our channels (last good: 41,300 on 2026-11-23 06:00 UTC)'
 */
export function shrinkReason(
  state: SourceState | undefined,
  field: string,
  unit: string,
  count: number,
  policy: YieldPolicy,
  location: string,
  label: string,
): string | undefined {
  const last = state?.goodCounts?.[field];
  if (state?.goodAt === undefined || last === undefined || last === 0) return undefined;
  const shrunk = count === 0 || count < policy.minYieldRatio * last;
  if (!shrunk || acceptsShrink(policy, location, label)) return undefined;
  return `yields ${formatCount(count)} ${count === 1 ? singular(unit) : unit} (last good: ${formatCount(last)} on ${formatTime(state.goodAt)})`;
}

/** Is `reason` a shrink (the operator may accept it)? */
export function isShrink(reason: string | undefined): boolean {
  return reason?.startsWith('yields ') === true && reason.includes('(last good: ');
}

/**
 * The line said about a source that was kept or contributes nothing.
 * @example sourceLine('guide', attempt, state)
 * // 'guide https://x/epg.xml yields 0 programmes for our channels (last good: 41,300 on …); keeping the last good data; run with --accept-shrink to take it'
 */
export function sourceLine(attempt: SourceAttempt, state: SourceState | undefined): string {
  const head = `${attempt.kind} ${attempt.label} ${attempt.reason ?? 'failed'}`;
  if (attempt.outcome === 'none') return `${head}; it never imported well, so it contributes nothing`;
  const since = state?.keptSince !== undefined ? ` (kept since ${formatTime(state.keptSince)})` : '';
  const from = state?.goodAt !== undefined ? ` from ${formatTime(state.goodAt)}` : '';
  const hint = isShrink(attempt.reason) ? '; run with --accept-shrink to take it' : '';
  return `${head}; keeping the last good data${from}${since}${hint}`;
}

/**
 * The attempts of an area whose import failed as a whole (the store refused it: the disk full,
 * another writer holding the lock, no channel left): the sources judged good are recorded as kept
 * (they imported well before, so their last good data is still served) or as contributing
 * nothing, `not imported: why`; the ones judged bad keep their own reason. So `marquee status`
 * shows the failure on every source it touched instead of the good attempt before it.
 * @example failedAreaAttempts(attempts, states, 'live-TV import failed: database or disk is full')
 */
export function failedAreaAttempts(
  attempts: readonly SourceAttempt[],
  states: ReadonlyMap<string, SourceState>,
  why: string,
): SourceAttempt[] {
  return attempts.map(({ copy: _copy, counts: _counts, ...attempt }) => {
    if (attempt.outcome === 'kept' || attempt.outcome === 'none') return attempt;
    const good = states.get(attempt.key)?.goodAt !== undefined;
    return { ...attempt, outcome: good ? 'kept' : 'none', reason: `not imported: ${why}` };
  });
}

/**
 * Why a source that failed to open or read is bad, without its label repeated (`failed: HTTP
 * 404`). Cancellation and store failures are not a source's fault: those are rethrown.
 */
export function failureReason(error: unknown, label: string, signal?: AbortSignal): string {
  if (signal?.aborted) throw error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'STORE_UNAVAILABLE' || code === 'IMPORT_FAILED') throw error;
  let message = error instanceof Error ? error.message : String(error);
  if (message.startsWith(`${label}:`)) {
    message = message
      .slice(label.length + 1)
      .replace(/^(\d+):(\d+):\s*/, 'line $1, column $2: ')
      .replace(/^(\d+):\s*/, 'line $1: ');
  }
  return `failed: ${message.trim()}`;
}

/** `41300` → `41,300`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Epoch ms → `2026-11-23 06:00 UTC`. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Counts as `12 channels, 1 guide`. */
export function formatCounts(counts: SourceCounts | undefined): string {
  if (counts === undefined) return '';
  return Object.entries(counts)
    .map(([k, v]) => `${formatCount(v)} ${v === 1 ? singular(k) : k}`)
    .join(', ');
}

/** The counted words of source counts and shrink reasons, one of each ("series" is both). */
const SINGULAR: Record<string, string> = {
  channels: 'channel',
  programmes: 'programme',
  movies: 'movie',
  episodes: 'episode',
  streams: 'stream',
  subtitles: 'subtitle',
  genres: 'genre',
  groups: 'group',
  items: 'item',
  guides: 'guide',
  playlists: 'playlist',
};

/** `programmes for our channels` → `programme for our channels`: the first word, when it is a count's. */
function singular(words: string): string {
  const [first = '', ...rest] = words.split(' ');
  return [SINGULAR[first] ?? first, ...rest].join(' ');
}
