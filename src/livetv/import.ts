import { MarqueeError } from '../errors.js';
import type { SourceOptions, SourceStream } from '../sources/input/index.js';
import { createHostMemo, redactLocation } from '../sources/input/index.js';
import { SpareXmltvThread, xmltvThreadUsed } from '../sources/xmltv/index.js';
import {
  failedAreaAttempts,
  type LiveTvImport,
  type OverDayCap,
  type SourceAttempt,
  type Store,
  yieldPolicy,
} from '../store/index.js';
import { CHANNEL_HEAD } from './guide-json.js';
import { importGuides } from './import-guides.js';
import { LARGE_IMPORT_CHANNELS, passChannels } from './import-pass.js';
import {
  configuredGuides,
  guideOptions,
  importFailure,
  readerGuides,
  recordFailure,
  unchanged,
  whatStays,
} from './import-support.js';
import { workDir } from './import-work.js';
import { matchingOf } from './match.js';
import type { ReviewGuide } from './match-review.js';
import { EntryList, withDecoration } from './match-step.js';
import { attemptOf, type GuidePlan, judging, type PlaylistPlan, planGuides, planPlaylist, reportOf } from './plan.js';
import { checkGuides } from './sources.js';
import type { ImportWarning, LiveTvImportOptions, LiveTvImportResult } from './types.js';
import { warningList } from './warnings.js';

const HOUR = 3_600_000;

/** The warning of programmes past `livetv.maxProgrammesPerDay`, naming the worst guide channel day and its guide. */
function overDayCapWarning(worst: OverDayCap, dropped: number, guides: readonly GuidePlan[]): ImportWarning {
  const base = worst.key.replace(/ \(shift [+-]?[\d.]+h\)$/, '');
  const guide = guides.find((g) => g.tally?.channelIds.has(base));
  return {
    source: guide?.label ?? guides.map((g) => g.label).join(', '),
    message:
      `guide channel "${worst.key}" has ${worst.programmes} programmes starting on ${worst.day}; the earliest ${worst.kept} are stored (livetv.maxProgrammesPerDay), ` +
      `${dropped} programmes past it on ${worst.days} guide channel ${worst.days === 1 ? 'day' : 'days'} in all are not`,
  };
}

/**
 * Imports the configured playlists and guides into `store`, atomically.
 * @example const result = await importLiveTv(store, { playlists: [{ location: 'tv.m3u' }], guides: [{ location: 'guide.xml.gz' }] })
 */
export async function importLiveTv(store: Store, options: LiveTvImportOptions): Promise<LiveTvImportResult> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const maxListed = options.maxListed ?? 50;
  const signal = options.signal;
  const sourceOptions: SourceOptions = {
    ...options.sourceOptions,
    allowPrivateAddresses: true,
    // One memo of unreachable hosts for this import: a hundred guides on one offline host cost one lookup.
    hosts: options.sourceOptions?.hosts ?? createHostMemo(),
    ...(signal ? { signal } : {}),
  };
  const previous = options.previous;
  let reading =
    options.playlists.map((p) => p.reader?.label ?? redactLocation(p.location)).join(', ') || 'the playlists';
  let imp: LiveTvImport | undefined;
  let opened: { location: string; stream: SourceStream } | undefined;
  const j = judging(store, yieldPolicy(options));
  const stays = whatStays(store);
  const work = workDir(store.file, options.workDir);
  const playlists: PlaylistPlan[] = [];
  let guides: GuidePlan[] = [];
  const attempts = (): SourceAttempt[] => [...playlists, ...guides].map((p) => attemptOf(p));
  let spare: SpareXmltvThread | undefined;
  let committed = false;

  try {
    if (options.playlists.length === 0) throw new MarqueeError('INVALID_SETTINGS', 'no playlist is configured');
    // 1. Playlists, each judged on its own; conditionally when a previous state is known.
    const planWarnings: ImportWarning[] = [];
    for (const source of options.playlists) {
      reading = source.reader?.label ?? redactLocation(source.location);
      playlists.push(
        await planPlaylist(
          j,
          source,
          sourceOptions,
          options,
          previous?.validators[source.location],
          work.copy('playlist', source.location),
          (w) => planWarnings.push(w),
          options.onProgress,
        ),
      );
    }
    if (previous && playlists.every((p) => p.outcome === 'unchanged')) {
      const configured = configuredGuides(options) ?? previous.playlistGuides.map((location) => ({ location }));
      reading = configured.map((g) => redactLocation(g.location)).join(', ');
      const check = await checkGuides(configured, previous, guideOptions(sourceOptions, options), (index) =>
        work.copy('guide', configured[index]!.location),
      );
      if (!check.changed) {
        guides = planGuides(j, configured);
        for (const g of guides) {
          g.outcome = 'unchanged';
          if (g.state?.goodCounts) g.counts = g.state.goodCounts;
        }
        await store.recordSourceAttempts('livetv', attempts()).catch(() => {});
        return unchanged(store, playlists, check.reports, previous, Math.round(performance.now() - started));
      }
      if (check.opened) opened = { location: configured[check.opened.index]!.location, stream: check.opened.stream };
    }
    if (playlists.every((p) => p.outcome === 'none')) {
      const lines = playlists.map((p) => reportOf(p, Date.now()).message).join('; ');
      await store.recordSourceAttempts('livetv', attempts(), { lockTimeoutMs: 1_000 }).catch(() => {});
      throw new MarqueeError('IMPORT_FAILED', `no playlist could be used: ${lines}; ${stays}`, {
        details: { source: reading },
      });
    }

    /** The channels of guides judged bad in the first pass, for the review of matches. */
    let review: ReviewGuide[] = [];
    /**
     * One pass over the sources, in a function of its own: when a guide turns out bad and a new
     * pass starts, nothing of this one (its import, channels, match report, guide index) is still
     * held by a suspended frame while the next one builds its own (a 300,000-channel account held
     * both passes at once: 1.3 GB).
     */
    const runPass = async (pass: number): Promise<LiveTvImportResult | undefined> => {
      const warnings = warningList(maxListed);
      for (const w of planWarnings) warnings.add(w);
      reading = store.file;
      imp = await store.beginLiveTvImport({
        now,
        retentionMs: (options.retentionHours ?? 48) * HOUR,
        horizonMs: (options.horizonDays ?? 14) * 24 * HOUR,
        ...(options.languages ? { languages: options.languages } : {}),
        ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
        ...(options.maxProgrammesPerDay !== undefined ? { maxProgrammesPerDay: options.maxProgrammesPerDay } : {}),
        channelHead: CHANNEL_HEAD,
      });

      // 2. Channels, built in a function of their own: nothing of the parsed playlists outlives it.
      const entries = new EntryList();
      // The channels go into the store now; matching, after the guides, needs only their names,
      // ids and shifts, and the report the entries' lines and names (storedChannels).
      const { subjects, headerGuides, streamsOverCap } = await passChannels(
        j,
        playlists,
        options,
        warnings.add,
        stays,
        entries,
        imp,
      );
      if (pass === 1)
        guides = planGuides(j, [...(configuredGuides(options) ?? headerGuides), ...readerGuides(options)]);
      options.onChannelsStored?.();
      // The first guide's parsing thread starts now, and loads while the guide is opened and the
      // channels indexed for matching (not sooner: its heap would add to the playlists' peak).
      if (pass === 1 && guides.length > 0 && xmltvThreadUsed(options.parseThread)) spare = new SpareXmltvThread();

      // 3-5. Guides, matching, and the guides judged (import-guides.ts).
      const matched = await importGuides({
        j,
        imp,
        pass,
        guides,
        subjects,
        entries,
        overrides: new Map(Object.entries(options.guideOverrides ?? {})),
        matching: matchingOf(options.matching),
        options,
        sourceOptions: guideOptions(sourceOptions, options),
        work,
        now,
        maxListed,
        warn: warnings.add,
        ...(spare !== undefined ? { spare } : {}),
        review,
        opened: (location) => {
          if (opened?.location !== location) return undefined;
          const stream = opened.stream;
          opened = undefined;
          return stream;
        },
        reading: (what) => {
          reading = what;
        },
      });
      if (matched.redo) {
        if (pass > 1) throw new Error('a guide read from local copies was judged bad twice');
        // A bad guide is in this import: start a new one from local bytes only. What was said
        // about the bad guides' content stays in the report: it tells why they were refused.
        const bad = new Set(guides.filter((g) => g.outcome !== 'imported').map((g) => g.label));
        planWarnings.push(...warnings.listed.filter((w) => bad.has(w.source)));
        review = matched.review;
        imp.discard();
        imp = undefined;
        for (const g of guides) {
          if (g.outcome === 'imported') g.from = 'file';
          else if (g.outcome === 'kept' || g.outcome === 'unchanged') g.from = 'copy';
          else g.from = 'none';
        }
        return undefined;
      }
      const { matchedBy, unmatched, decorations } = matched;
      // The matcher's indexes are garbage now (300,000 names: 170 MB of a 255 MB heap), and the
      // commit's own memory would come on top of them: a large import collects them first.
      if (subjects.length >= LARGE_IMPORT_CHANNELS) options.onLargeGarbage?.();

      options.onProgress?.({ phase: 'commit', source: store.file, bytes: 0, records: subjects.length });
      signal?.throwIfAborted();
      const sources = [...playlists, ...guides].map((p) => withDecoration(reportOf(p, Date.now()), decorations));
      const report = imp.commit({
        warnings: warnings.count(),
        details: { sources, matchedBy, unmatched, warnings: warnings.listed, streamsOverCap },
        sources: [
          ...playlists.map((p) => attemptOf(p, () => ({ file: p.file! }))),
          ...guides.map((g) => attemptOf(g, () => ({ file: g.file! }))),
        ],
      });
      committed = true;
      if (report.overDayCap) warnings.add(overDayCapWarning(report.overDayCap, report.dropped.overDayCap, guides));
      const validators: Record<string, NonNullable<GuidePlan['validators']>> = {};
      for (const p of [...playlists, ...guides]) if (p.validators) validators[p.location] = p.validators;
      return {
        status: 'imported',
        counts: {
          channels: report.counts.channels,
          streams: report.counts.streams,
          groups: report.counts.groups,
          programmes: report.counts.programmes,
          matchedChannels: report.counts.matchedChannels,
          unmatchedChannels: report.counts.unmatchedChannels,
          streamsOverCap,
        },
        matchedBy,
        // Built when asked for (import --json): one object per playlist entry.
        get matches() {
          return matched.matches();
        },
        unmatched,
        warnings: warnings.listed,
        warningCount: warnings.count(),
        dropped: { ...report.dropped, unusedGuide: report.dropped.unusedGuide + matched.unwanted },
        sources,
        state: { validators, playlistGuides: configuredGuides(options) ? [] : headerGuides.map((g) => g.location) },
        durationMs: Math.round(performance.now() - started),
      };
    };
    for (let pass = 1; ; pass++) {
      const result = await runPass(pass);
      if (result !== undefined) return result;
      options.onNewPass?.();
    }
  } catch (error) {
    opened?.stream.close();
    const failure = importFailure(error, reading, signal, stays);
    // Every source of the failed import says so (marquee status, the next report), not only the
    // history: not on a store without states yet (legacy), nor for a cancelled import.
    const planned = guides.length > 0 ? guides : planGuides(j, configuredGuides(options) ?? []);
    const record =
      j.legacy || signal?.aborted
        ? undefined
        : failedAreaAttempts(
            [...playlists, ...planned].map((p) => attemptOf(p)),
            j.states,
            failure.message,
          );
    if (imp && !imp.finished) imp.abort(failure.message, record);
    else if (!imp) await recordFailure(store, failure.message, record);
    else if (!committed && record) {
      // A step of the import failed and rolled it back: the attempts go in a transaction of their own.
      await store.recordSourceAttempts('livetv', record, { lockTimeoutMs: 1_000 }).catch(() => {});
    }
    throw failure;
  } finally {
    spare?.close();
    work.remove();
  }
}
