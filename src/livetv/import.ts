/**
 * `importLiveTv`: playlists + guides → one atomic store import. Order of work: the change check
 * (refreshes), the playlists (small, read whole), channels with stable ids (stored at once, so
 * only what matching needs stays in memory while the guides stream), then each guide streamed in
 * priority order, then matching — done last, when every guide channel is known — and the commit.
 * Any failure aborts the store import (the previous data stays served, the failure is recorded
 * in the import history) and throws IMPORT_FAILED naming the source being read.
 */
import { MarqueeError } from '../errors.js';
import type { SourceOptions, SourceStream, SourceValidators } from '../sources/input/index.js';
import { redactLocation } from '../sources/input/index.js';
import { parseM3u } from '../sources/m3u/index.js';
import { StringInterner } from '../sources/xmltv/index.js';
import type { LiveTvImport, Store } from '../store/index.js';
import { buildChannels, type PlaylistInput } from './channels.js';
import { type GuideContext, importGuide } from './guide.js';
import { CHANNEL_HEAD } from './guide-json.js';
import { GuideIndex, MatchDemand, type MatchSubject, shiftedKey } from './match.js';
import { checkGuides, type PlaylistText, readPlaylist } from './sources.js';
import type {
  GuideSource,
  ImportWarning,
  LiveTvImportOptions,
  LiveTvImportResult,
  MatchCounts,
  SourceReport,
} from './types.js';
import { warningList } from './warnings.js';

const HOUR = 3_600_000;

/** What matching needs of a stored channel. */
interface MatchChannel extends MatchSubject {
  readonly id: string;
  readonly source: string;
}

/**
 * Imports the configured playlists and guides into `store`, atomically.
 * @example const result = await importLiveTv(store, { playlists: [{ location: 'tv.m3u' }], guides: [{ location: 'guide.xml.gz' }] })
 */
export async function importLiveTv(store: Store, options: LiveTvImportOptions): Promise<LiveTvImportResult> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const maxListed = options.maxListed ?? 50;
  const warnings = warningList(maxListed);
  const signal = options.signal;
  const sourceOptions: SourceOptions = {
    ...options.sourceOptions,
    allowPrivateAddresses: true,
    ...(signal ? { signal } : {}),
  };
  const previous = options.previous;
  let reading = options.playlists.map((p) => redactLocation(p.location)).join(', ') || 'the playlists';
  let imp: LiveTvImport | undefined;
  let opened: { index: number; stream: SourceStream } | undefined;

  try {
    if (options.playlists.length === 0) throw new MarqueeError('INVALID_SETTINGS', 'no playlist is configured');
    // 1. Playlists, conditionally when a previous state is known.
    const texts: PlaylistText[] = [];
    for (const playlist of options.playlists) {
      reading = redactLocation(playlist.location);
      const validators = previous?.validators[playlist.location];
      texts.push(
        await readPlaylist(
          playlist,
          { ...sourceOptions, ...(validators ? { previous: validators } : {}) },
          options.onProgress,
        ),
      );
    }
    if (previous && texts.every((t) => t.text === undefined)) {
      const guides = configuredGuides(options) ?? previous.playlistGuides.map((location) => ({ location }));
      reading = guides.map((g) => redactLocation(g.location)).join(', ');
      const check = await checkGuides(guides, previous, guideOptions(sourceOptions, options));
      if (!check.changed) {
        return unchanged(store, texts, check.reports, previous, Math.round(performance.now() - started));
      }
      opened = check.opened;
    }
    // Something changed: every source is read in full, the unchanged playlists again.
    // By index: a loop variable would keep the last playlist's text alive across the guides (a
    // suspended async function keeps its variables).
    for (let i = 0; i < texts.length; i++) {
      reading = texts[i]!.label;
      if (texts[i]!.text === undefined)
        texts[i] = await readPlaylist(texts[i]!.source, sourceOptions, options.onProgress);
    }

    reading = store.file;
    imp = await store.beginLiveTvImport({
      now,
      retentionMs: (options.retentionHours ?? 48) * HOUR,
      horizonMs: (options.horizonDays ?? 14) * 24 * HOUR,
      ...(options.languages ? { languages: options.languages } : {}),
      channelHead: CHANNEL_HEAD,
    });

    // 2. Channels, parsed in a function of their own: nothing of the parsed playlists outlives it.
    const { channels, sources, validators, headerGuides } = playlistChannels(texts, options, warnings.add);
    texts.length = 0;

    // The channels go into the store now. Matching, after the guides, needs only their names,
    // ids and shifts: kept as strings of their own, since strings cut from the playlist text
    // would keep all of it alive (the guides can take a while, and the 50,000-entry benchmark
    // playlist holds about 50 MB in memory).
    const own = new StringInterner();
    const subjects: MatchChannel[] = channels.map((channel) => {
      imp!.addChannel(channel);
      return {
        id: channel.id,
        name: own.intern(channel.name),
        ...(channel.tvgId !== undefined ? { tvgId: own.intern(channel.tvgId) } : {}),
        ...(channel.tvgName !== undefined ? { tvgName: own.intern(channel.tvgName) } : {}),
        shiftHours: channel.shiftHours,
        source: channel.source,
      };
    });
    channels.length = 0;
    options.onChannelsStored?.();

    // 3. Guides, streamed in priority order.
    const overrides = new Map(Object.entries(options.guideOverrides ?? {}));
    const guides: readonly (GuideSource & { readonly namedBy?: string })[] = configuredGuides(options) ?? headerGuides;
    imp.setGuideSources(guides.length);
    const ctx: GuideContext = {
      imp,
      demand: new MatchDemand(subjects, overrides),
      index: new GuideIndex(),
      keysWritten: new Set(),
      sourceOptions: guideOptions(sourceOptions, options),
      warn: warnings.add,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(signal ? { signal } : {}),
      window: { from: now - (options.retentionHours ?? 48) * HOUR, to: now + (options.horizonDays ?? 14) * 24 * HOUR },
      unwanted: 0,
    };
    for (const [index, guide] of guides.entries()) {
      reading = redactLocation(guide.location);
      const stream = opened?.index === index ? opened.stream : undefined;
      const read = await importGuide(ctx, guide, index, stream);
      sources.push(read.report);
      if (read.validators) validators[guide.location] = read.validators;
    }

    // 4. Matching, now that every guide channel is known, and the channels themselves.
    reading = store.file;
    const matchedBy: { -readonly [K in keyof MatchCounts]: number } = {
      override: 0,
      tvgId: 0,
      feed: 0,
      displayName: 0,
      normalizedName: 0,
    };
    const unmatched: string[] = [];
    for (const channel of subjects) {
      const match = ctx.index.resolve(channel, overrides);
      const guideKey = match ? shiftedKey(match.key, channel.shiftHours) : undefined;
      if (match && match.rule === 'override' && !ctx.index.has(match.key)) {
        warnings.add({
          source: channel.source,
          message: `override for "${channel.name}" names guide channel "${match.key}", which no guide has`,
        });
      }
      if (match && guideKey !== undefined && ctx.keysWritten.has(guideKey)) matchedBy[match.rule]++;
      else if (unmatched.length < maxListed) unmatched.push(channel.name);
      if (guideKey !== undefined) imp.setGuideKey(channel.id, guideKey);
    }

    options.onProgress?.({ phase: 'commit', source: store.file, bytes: 0, records: subjects.length });
    signal?.throwIfAborted();
    const report = imp.commit({
      warnings: warnings.count(),
      details: { sources, matchedBy, unmatched, warnings: warnings.listed },
    });
    return {
      status: 'imported',
      counts: {
        channels: report.counts.channels,
        streams: report.counts.streams,
        groups: report.counts.groups,
        programmes: report.counts.programmes,
        matchedChannels: report.counts.matchedChannels,
        unmatchedChannels: report.counts.unmatchedChannels,
      },
      matchedBy,
      unmatched,
      warnings: warnings.listed,
      warningCount: warnings.count(),
      dropped: { ...report.dropped, unusedGuide: report.dropped.unusedGuide + ctx.unwanted },
      sources,
      state: { validators, playlistGuides: configuredGuides(options) ? [] : headerGuides.map((g) => g.location) },
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    opened?.stream.close();
    const failure = importFailure(error, reading, signal);
    if (imp && !imp.finished) imp.abort(failure.message);
    else if (!imp) await recordFailure(store, failure.message);
    throw failure;
  }
}

/** The playlists parsed and grouped into channels, with their source reports; throws when no channel is left. */
function playlistChannels(
  texts: readonly PlaylistText[],
  options: LiveTvImportOptions,
  warn: (warning: ImportWarning) => void,
) {
  const inputs: PlaylistInput[] = [];
  const sources: SourceReport[] = [];
  const validators: Record<string, SourceValidators> = {};
  const headerGuides: { location: string; namedBy: string }[] = [];
  for (const t of texts) {
    const playlist = parseM3u(t.text ?? '', t.label);
    for (const w of playlist.warnings) warn(w);
    for (const url of playlist.header.guideUrls) {
      if (!headerGuides.some((g) => g.location === url)) headerGuides.push({ location: url, namedBy: t.label });
    }
    inputs.push({ playlist, source: t.label, shiftHours: t.source.shiftHours ?? 0 });
    sources.push({ ...t.report, records: playlist.entries.length, warnings: playlist.warnings.length });
    if (t.validators) validators[t.source.location] = t.validators;
  }
  const channels = buildChannels(inputs, options, warn);
  if (channels.length === 0) {
    const entries = inputs.reduce((n, i) => n + i.playlist.entries.length, 0);
    throw new MarqueeError(
      'IMPORT_FAILED',
      `${texts.map((t) => t.label).join(', ')}: no channel to serve (${entries} entries read; ` +
        'none left after the group filters and URL checks); the previous data is still served',
    );
  }
  return { channels, sources, validators, headerGuides };
}

/** The counts of the data being served (an unchanged refresh reports what is still served). */
function servedCounts(store: Store): LiveTvImportResult['counts'] {
  const c = store.counts();
  return {
    channels: c.channels,
    streams: c.streams,
    groups: c.groups,
    programmes: c.programmes,
    matchedChannels: c.matchedChannels,
    unmatchedChannels: c.unmatchedChannels,
  };
}

/**
 * A failure before the store import began (a playlist unreadable) still goes into the import
 * history, so `lastImport()` tells why a refresh failed. Best effort: an import already running
 * elsewhere, or a broken store, must not hide the source error.
 */
async function recordFailure(store: Store, reason: string): Promise<void> {
  try {
    const imp = await store.beginLiveTvImport({ lockTimeoutMs: 1_000 });
    imp.abort(reason);
  } catch {
    // The thrown source error is what the caller needs.
  }
}

function configuredGuides(options: LiveTvImportOptions): readonly GuideSource[] | undefined {
  return options.guides && options.guides.length > 0 ? options.guides : undefined;
}

/**
 * Guides named by a playlist header come from the playlist's content, not the operator: they may
 * reach the network the operator allowed, but never a local file.
 */
function guideOptions(base: SourceOptions, options: LiveTvImportOptions): SourceOptions {
  return configuredGuides(options) ? base : { ...base, allowFiles: false };
}

function unchanged(
  store: Store,
  texts: readonly PlaylistText[],
  guideReports: readonly SourceReport[],
  previous: LiveTvImportOptions['previous'] & object,
  durationMs: number,
): LiveTvImportResult {
  return {
    status: 'unchanged',
    counts: servedCounts(store),
    matchedBy: { override: 0, tvgId: 0, feed: 0, displayName: 0, normalizedName: 0 },
    unmatched: [],
    warnings: [],
    warningCount: 0,
    dropped: {},
    sources: [...texts.map((t) => t.report), ...guideReports],
    state: previous,
    durationMs,
  };
}

/** One IMPORT_FAILED naming what was being read, whatever failed underneath. */
function importFailure(error: unknown, reading: string, signal: AbortSignal | undefined): MarqueeError {
  if (error instanceof MarqueeError && error.code === 'IMPORT_FAILED') return error;
  const why = signal?.aborted
    ? 'the import was cancelled'
    : error instanceof MarqueeError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  return new MarqueeError(
    'IMPORT_FAILED',
    `live-TV import failed while reading ${reading}: ${why}; the previous data is still served`,
    { cause: error, details: { source: reading } },
  );
}
