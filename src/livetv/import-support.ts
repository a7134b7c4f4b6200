/** The live-TV import's small parts: counts served, failures recorded and named, which guides a source may read. */
import { MarqueeError } from '../errors.js';
import type { SourceOptions } from '../sources/input/index.js';
import type { SourceAttempt, Store } from '../store/index.js';
import { STREAMS_NOT_SERVED } from './channels.js';
import { type PlaylistPlan, reportOf } from './plan.js';
import type { GuideSource, LiveTvImportOptions, LiveTvImportResult, SourceReport } from './types.js';

/** The counts of the data being served (an unchanged refresh reports what is still served). */
export function servedCounts(store: Store): LiveTvImportResult['counts'] {
  const c = store.counts();
  return {
    channels: c.channels,
    streams: c.streams,
    groups: c.groups,
    programmes: c.programmes,
    matchedChannels: c.matchedChannels,
    unmatchedChannels: c.unmatchedChannels,
    // As the last good import of each playlist counted them.
    streamsOverCap: store.sourceStates('livetv').reduce((sum, s) => sum + (s.goodCounts?.[STREAMS_NOT_SERVED] ?? 0), 0),
  };
}

/**
 * A failure before the store import began (a playlist unreadable) still goes into the import
 * history, so `lastImport()` tells why a refresh failed. Best effort: an import already running
 * elsewhere, or a broken store, must not hide the source error.
 */
export async function recordFailure(store: Store, reason: string, sources?: readonly SourceAttempt[]): Promise<void> {
  try {
    const imp = await store.beginLiveTvImport({ lockTimeoutMs: 1_000 });
    imp.abort(reason, sources);
  } catch {
    // The thrown source error is what the caller needs.
  }
}

/** The guides the playlists' readers offer (an Xtream account's `xmltv.php`): the operator configured those sources. */
export function readerGuides(options: LiveTvImportOptions): readonly GuideSource[] {
  return options.playlists.flatMap((p) => p.reader?.guides ?? []);
}

export function configuredGuides(options: LiveTvImportOptions): readonly GuideSource[] | undefined {
  return options.guides && options.guides.length > 0 ? options.guides : undefined;
}

/**
 * Guides named by a playlist header come from the playlist's content, not the operator: they may
 * never read a local file, nor reach a loopback, private or link-local address unless the
 * operator allows it (`allowPrivateSources`, setting `sources.allowPrivate`).
 */
export function guideOptions(base: SourceOptions, options: LiveTvImportOptions): (location: string) => SourceOptions {
  if (configuredGuides(options)) return () => base;
  const allow = options.allowPrivateSources;
  const readers = new Set(readerGuides(options).map((g) => g.location));
  return (location) =>
    readers.has(location)
      ? base
      : {
          ...base,
          allowFiles: false,
          allowPrivateAddresses: allow === true,
          // A listed URL admits itself only: each hop of a redirect is judged on its own.
          ...(Array.isArray(allow) ? { privateUrls: allow } : {}),
        };
}

export function unchanged(
  store: Store,
  playlists: readonly PlaylistPlan[],
  guideReports: readonly SourceReport[],
  previous: LiveTvImportOptions['previous'] & object,
  durationMs: number,
): LiveTvImportResult {
  return {
    status: 'unchanged',
    counts: servedCounts(store),
    matchedBy: { override: 0, tvgId: 0, feed: 0, displayName: 0, normalizedName: 0, scored: 0 },
    unmatched: [],
    warnings: [],
    warningCount: 0,
    dropped: {},
    sources: [...playlists.map((p) => reportOf(p, Date.now())), ...guideReports],
    state: previous,
    durationMs,
  };
}

/** What a failed import leaves served, for its message: on a fresh store there is nothing. */
export function whatStays(store: Store): string {
  return store.counts().channels > 0
    ? 'the previous data is still served'
    : 'no live TV was imported before, so none is served';
}

/** One IMPORT_FAILED naming what was being read, whatever failed underneath. */
export function importFailure(
  error: unknown,
  reading: string,
  signal: AbortSignal | undefined,
  stays: string,
): MarqueeError {
  if (error instanceof MarqueeError && error.code === 'IMPORT_FAILED') return error;
  const why = signal?.aborted
    ? 'the import was cancelled'
    : error instanceof MarqueeError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  return new MarqueeError('IMPORT_FAILED', `live-TV import failed while reading ${reading}: ${why}; ${stays}`, {
    cause: error,
    details: { source: reading },
  });
}
