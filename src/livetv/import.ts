/**
 * `importLiveTv`: playlists + guides → one atomic store import, each source judged on its own
 * (plan.ts, docs/reliability.md): a source that cannot be read, is not its format, yields nothing
 * or shrinks past the guard is read from its last good copy instead, so what it served stays
 * served. Order of work: the playlists (small, read whole, judged at once), the change check
 * (refreshes), channels with stable ids (stored at once, so only what matching needs stays in
 * memory while the guides stream), each guide streamed in priority order (its raw bytes copied
 * to a work folder as they come), matching, the guides' judgement and the commit with every
 * source's state and the copies of those imported. A guide found bad after it was streamed in
 * makes a second pass: a new import from local bytes only (the copies just made, and last good
 * copies for the bad guides). A failure of the store aborts the import (the previous data stays
 * served, the failure is recorded in the import history) and throws IMPORT_FAILED.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MarqueeError } from '../errors.js';
import type { CopyFile, SourceOptions, SourceStream } from '../sources/input/index.js';
import {
  createCopyFile,
  createHostMemo,
  openCopy,
  openSource,
  readFileChunks,
  redactLocation,
  SOURCE_LIMITS,
} from '../sources/input/index.js';
import { SpareXmltvThread, StringInterner, xmltvThreadUsed } from '../sources/xmltv/index.js';
import {
  copiesDir,
  failedAreaAttempts,
  failureReason,
  type LiveTvImport,
  type SourceAttempt,
  type Store,
  yieldPolicy,
} from '../store/index.js';
import { buildChannels, type ChannelDraft, type PlaylistInput } from './channels.js';
import { type GuideContext, importGuide, newGuideTally } from './guide.js';
import { CHANNEL_HEAD } from './guide-json.js';
import { nothingReason } from './guide-yield.js';
import { GuideIndex, MatchDemand, matchingOf } from './match.js';
import { EntryList, type MatchChannel, matchChannels } from './match-step.js';
import {
  attemptOf,
  type GuidePlan,
  hasCopy,
  type Judging,
  judgeBad,
  judgeGuide,
  judging,
  type PlaylistPlan,
  planGuides,
  planPlaylist,
  playlistOf,
  reportOf,
} from './plan.js';
import { checkGuides } from './sources.js';
import type { GuideSource, ImportWarning, LiveTvImportOptions, LiveTvImportResult, SourceReport } from './types.js';
import { warningList } from './warnings.js';

const HOUR = 3_600_000;
const MiB = 1024 * 1024;
/** A playlist's text, read back from a copy, is capped as the playlist itself is. */
const PLAYLIST_MAX_BYTES = SOURCE_LIMITS.playlist.maxBytes;

/** The work folder of one import: the copies of the guides as they are read. */
interface WorkDir {
  /** A new copy file for the source of `kind` at `location` (one per source per import). */
  copy(kind: string, location: string): CopyFile;
  remove(): void;
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

    for (let pass = 1; ; pass++) {
      const warnings = warningList(maxListed);
      for (const w of planWarnings) warnings.add(w);
      reading = store.file;
      imp = await store.beginLiveTvImport({
        now,
        retentionMs: (options.retentionHours ?? 48) * HOUR,
        horizonMs: (options.horizonDays ?? 14) * 24 * HOUR,
        ...(options.languages ? { languages: options.languages } : {}),
        ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
        channelHead: CHANNEL_HEAD,
      });

      // 2. Channels, built in a function of their own: nothing of the parsed playlists outlives it.
      const entries = new EntryList();
      const { channels, headerGuides } = await passChannels(j, playlists, options, warnings.add, stays, entries);
      if (pass === 1)
        guides = planGuides(j, [...(configuredGuides(options) ?? headerGuides), ...readerGuides(options)]);

      // The channels go into the store now; matching, after the guides, needs only their names,
      // ids and shifts, and the report the entries' lines and names (storedChannels).
      const subjects = storedChannels(imp, channels, entries);
      channels.length = 0;
      options.onChannelsStored?.();
      const overrides = new Map(Object.entries(options.guideOverrides ?? {}));
      const matching = matchingOf(options.matching);
      const demand = new MatchDemand(subjects, overrides, matching);
      // The first guide's parsing thread starts now, and loads while the guide is opened and the
      // channels indexed for matching (not sooner: its heap would add to the playlists' peak).
      if (pass === 1 && guides.length > 0 && xmltvThreadUsed(options.parseThread)) spare = new SpareXmltvThread();

      // 3. Guides, streamed in priority order.
      imp.setGuideSources(guides.length);
      const ctx: GuideContext = {
        imp,
        ...(options.parseThread !== undefined ? { parseThread: options.parseThread } : {}),
        ...(spare !== undefined ? { spareThread: spare } : {}),
        ...(options.onInflatedGuideBytes ? { onInflatedGuideBytes: options.onInflatedGuideBytes } : {}),
        demand,
        index: new GuideIndex(matching),
        keysWritten: new Set(),
        wanted: new Set(),
        warn: warnings.add,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(signal ? { signal } : {}),
        window: {
          from: now - (options.retentionHours ?? 48) * HOUR,
          to: now + (options.horizonDays ?? 14) * 24 * HOUR,
        },
        unwanted: 0,
      };
      let redo = false;
      for (const [index, guide] of guides.entries()) {
        reading = guide.label;
        const stream = opened?.location === guide.location ? opened.stream : undefined;
        if (stream) opened = undefined;
        const reader: GuideReader = { j, ctx, work, options: guideOptions(sourceOptions, options), previous };
        if (await passGuide(reader, guide, index, stream)) redo = true;
      }

      // 4. Matching, now that every guide channel is known, and the channels themselves.
      reading = store.file;
      options.onGuidesRead?.();
      const { matchedBy, unmatched, keysShown, guidesShown, matches } = matchChannels({
        imp,
        index: ctx.index,
        subjects,
        entries,
        overrides,
        keysWritten: ctx.keysWritten,
        wanted: ctx.wanted,
        maxListed,
        warn: warnings.add,
        formsOf: (i) => demand.formsOf(i),
      });

      // 5. The guides read from their sources are judged by what they yield for our channels.
      for (const g of guides) {
        if (g.tally === undefined || g.from === 'copy' || g.from === 'none') continue;
        let matched = 0;
        for (const key of keysShown) matched += g.tally.inWindow.get(key) ?? 0;
        if (pass === 1 && g.outcome === 'imported') {
          const yieldContext = {
            index: ctx.index,
            demand: ctx.demand,
            subjects,
            window: ctx.window,
            shown: guidesShown,
          };
          judgeGuide(j, g, matched, () => nothingReason(g.tally!, matched, yieldContext));
          if (g.outcome !== 'imported') redo = true;
        } else if (g.outcome === 'imported') {
          g.counts = { programmes: matched, read: g.tally.programmes };
        }
      }
      if (redo) {
        if (pass > 1) throw new Error('a guide read from local copies was judged bad twice');
        // A bad guide is in this import: start a new one from local bytes only. What was said
        // about the bad guides' content stays in the report: it tells why they were refused.
        const bad = new Set(guides.filter((g) => g.outcome !== 'imported').map((g) => g.label));
        planWarnings.push(...warnings.listed.filter((w) => bad.has(w.source)));
        imp.discard();
        imp = undefined;
        for (const g of guides) {
          if (g.outcome === 'imported') g.from = 'file';
          else if (g.outcome === 'kept' || g.outcome === 'unchanged') g.from = 'copy';
          else g.from = 'none';
        }
        continue;
      }

      options.onProgress?.({ phase: 'commit', source: store.file, bytes: 0, records: subjects.length });
      signal?.throwIfAborted();
      const sources = [...playlists, ...guides].map((p) => reportOf(p, Date.now()));
      const report = imp.commit({
        warnings: warnings.count(),
        details: { sources, matchedBy, unmatched, warnings: warnings.listed },
        sources: [
          ...playlists.map((p) => attemptOf(p, () => ({ file: p.file! }))),
          ...guides.map((g) => attemptOf(g, () => ({ file: g.file! }))),
        ],
      });
      committed = true;
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
        },
        matchedBy,
        matches,
        unmatched,
        warnings: warnings.listed,
        warningCount: warnings.count(),
        dropped: { ...report.dropped, unusedGuide: report.dropped.unusedGuide + ctx.unwanted },
        sources,
        state: { validators, playlistGuides: configuredGuides(options) ? [] : headerGuides.map((g) => g.location) },
        durationMs: Math.round(performance.now() - started),
      };
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

/**
 * Adds `channels` to the import and returns what matching and the report keep of them and of the
 * playlist `entries`, as strings of their own: strings cut from the playlist text would keep all
 * of it alive while the guides stream (the 50,000-entry benchmark playlist holds about 50 MB in
 * memory). In a function of its own, so that the interner's table goes with it.
 */
function storedChannels(imp: LiveTvImport, channels: readonly ChannelDraft[], entries: EntryList): MatchChannel[] {
  const own = new StringInterner();
  const subjects: MatchChannel[] = channels.map((channel) => {
    imp.addChannel(channel);
    return {
      id: channel.id,
      name: own.intern(channel.name),
      ...(channel.tvgId !== undefined ? { tvgId: own.intern(channel.tvgId) } : {}),
      ...(channel.tvgName !== undefined ? { tvgName: own.intern(channel.tvgName) } : {}),
      ...(channel.group !== undefined ? { group: own.intern(channel.group) } : {}),
      ...(channel.country !== undefined ? { country: own.intern(channel.country) } : {}),
      shiftHours: channel.shiftHours,
      source: channel.source,
    };
  });
  // Most entries are named as their channel: that name is kept once.
  entries.keepNames((name, channel) => (name === subjects[channel]!.name ? undefined : own.intern(name)));
  return subjects;
}

interface GuideReader {
  readonly j: Judging;
  readonly ctx: GuideContext;
  readonly work: WorkDir;
  readonly options: (location: string) => SourceOptions;
  readonly previous: LiveTvImportOptions['previous'];
}

/**
 * Streams guide `g` into this pass's import from where the plan says. A guide that fails while
 * read from its source is judged bad: when nothing of it reached the import yet its last good
 * copy is read at once; otherwise true is returned (a new pass must start without it).
 */
async function passGuide(r: GuideReader, g: GuidePlan, index: number, opened?: SourceStream): Promise<boolean> {
  if (g.from === 'none') return false;
  const options = r.options(g.location);
  const limits = { maxDecompressedBytes: options.maxDecompressedBytes ?? 1024 * MiB };
  g.tally = newGuideTally();
  if (g.from === 'file' || g.from === 'copy') {
    const chunks = g.from === 'file' ? readFileChunks(g.file!) : r.j.store.sourceCopy(g.key);
    const read = await importGuide(r.ctx, g.source, index, openCopy(chunks, g.label, limits), g.tally);
    if (g.from === 'file' || g.outcome === 'unchanged') {
      g.report = { ...read.report, status: g.outcome === 'unchanged' ? 'unchanged' : 'fetched', outcome: g.outcome };
    }
    return false;
  }
  const validators = r.previous?.validators[g.location];
  const conditional = validators !== undefined && hasCopy(g);
  const copy = r.work.copy('guide', g.location);
  try {
    const stream =
      opened ??
      (g.source.open
        ? await g.source.open({ ...options, copyTo: copy }, r.ctx.warn)
        : await openSource(g.location, { ...options, copyTo: copy, ...(conditional ? { previous: validators } : {}) }));
    if (stream.notModified) {
      copy.discard();
      g.outcome = 'unchanged';
      if (g.state?.goodCounts) g.counts = g.state.goodCounts;
      g.validators = validators!;
      g.from = 'copy';
      return passGuide(r, g, index);
    }
    const read = await importGuide(r.ctx, g.source, index, stream, g.tally);
    g.report = read.report;
    if (read.validators) g.validators = read.validators;
    await copy.finish();
    g.file = copy.path;
    return false;
  } catch (error) {
    copy.discard();
    if (r.ctx.imp.finished || (error instanceof MarqueeError && error.code === 'IMPORT_FAILED')) throw error;
    const forbidden = error instanceof MarqueeError && error.code === 'SOURCE_FORBIDDEN' && g.source.namedBy;
    judgeBad(
      r.j,
      g,
      failureReason(error, g.label, r.ctx.signal) +
        (forbidden ? ` (named by ${g.source.namedBy}; list it in sources.allowPrivate to allow it)` : ''),
    );
    if (validators) g.validators = validators;
    if (g.tally.added) return true;
    g.from = g.outcome === 'kept' ? 'copy' : 'none';
    return passGuide(r, g, index);
  }
}

/** The channels of this pass's playlists (fresh, or read back from copies), and the guides their headers name. */
async function passChannels(
  j: Judging,
  plans: readonly PlaylistPlan[],
  options: LiveTvImportOptions,
  warn: (warning: ImportWarning) => void,
  stays: string,
  entries: EntryList,
) {
  const inputs: PlaylistInput[] = [];
  const headerGuides: { location: string; namedBy: string }[] = [];
  for (const p of plans) {
    const playlist = await playlistOf(j, p, PLAYLIST_MAX_BYTES);
    if (playlist === undefined) continue;
    for (const url of playlist.header.guideUrls) {
      if (!headerGuides.some((g) => g.location === url)) headerGuides.push({ location: url, namedBy: p.label });
    }
    inputs.push({ playlist, source: p.label, origin: p.key, shiftHours: p.source.shiftHours ?? 0 });
    if (p.report && p.outcome === 'imported') {
      p.report = { ...p.report, records: playlist.entries.length, warnings: playlist.warnings.length };
    }
  }
  const channels = buildChannels(inputs, options, warn, entries);
  if (channels.length === 0) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `${plans.map((p) => p.label).join(', ')}: no channel to serve (none left after the group filters and URL checks); ${stays}`,
    );
  }
  return { channels, headerGuides };
}

/**
 * The work folder: given, or a new one in the store's copies folder (copies can be as large as a
 * guide, so not in a RAM-backed /tmp; on the copies' file system, a good one is moved into place
 * at the commit), removed when the import ends.
 */
function workDir(storeFile: string, given: string | undefined): WorkDir {
  let dir: string | undefined;
  let made = false;
  let n = 0;
  const copies = new Map<string, CopyFile>();
  return {
    copy(kind, location) {
      const id = `${kind}:${location}`;
      const existing = copies.get(id);
      if (existing) return existing;
      if (dir === undefined) {
        if (given !== undefined) {
          mkdirSync(given, { recursive: true });
          dir = given;
        } else {
          const copies = copiesDir(storeFile);
          mkdirSync(copies, { recursive: true });
          dir = mkdtempSync(join(copies, `work-${process.pid}-`));
          made = true;
        }
      }
      const file = createCopyFile(join(dir, `${kind}-${n++}.copy`));
      copies.set(id, file);
      return file;
    },
    remove() {
      for (const copy of copies.values()) {
        copy.discard();
        rmSync(copy.path, { force: true });
      }
      if (made && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
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
async function recordFailure(store: Store, reason: string, sources?: readonly SourceAttempt[]): Promise<void> {
  try {
    const imp = await store.beginLiveTvImport({ lockTimeoutMs: 1_000 });
    imp.abort(reason, sources);
  } catch {
    // The thrown source error is what the caller needs.
  }
}

/** The guides the playlists' readers offer (an Xtream account's `xmltv.php`): the operator configured those sources. */
function readerGuides(options: LiveTvImportOptions): readonly GuideSource[] {
  return options.playlists.flatMap((p) => p.reader?.guides ?? []);
}

function configuredGuides(options: LiveTvImportOptions): readonly GuideSource[] | undefined {
  return options.guides && options.guides.length > 0 ? options.guides : undefined;
}

/**
 * Guides named by a playlist header come from the playlist's content, not the operator: they may
 * never read a local file, nor reach a loopback, private or link-local address unless the
 * operator allows it (`allowPrivateSources`, setting `sources.allowPrivate`).
 */
function guideOptions(base: SourceOptions, options: LiveTvImportOptions): (location: string) => SourceOptions {
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

function unchanged(
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
function whatStays(store: Store): string {
  return store.counts().channels > 0
    ? 'the previous data is still served'
    : 'no live TV was imported before, so none is served';
}

/** One IMPORT_FAILED naming what was being read, whatever failed underneath. */
function importFailure(error: unknown, reading: string, signal: AbortSignal | undefined, stays: string): MarqueeError {
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
