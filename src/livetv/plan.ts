/**
 * Each live-TV source judged on its own (docs/reliability.md). A playlist is read whole and
 * judged before anything is imported: not a playlist, no channel, or shrunk past the guard, and
 * it is read from its last good copy instead. A guide streams into the import and is judged
 * once matched (import.ts); what it is read from in each pass is decided here.
 */
import { MarqueeError } from '../errors.js';
import { entryLimits } from '../sources/entry-limits.js';
import type { CopyFile, SourceOptions, SourceValidators } from '../sources/input/index.js';
import { readCopyText, readFileChunks, redactLocation } from '../sources/input/index.js';
import { notAPlaylist, parseM3u } from '../sources/m3u/index.js';
import type { Playlist } from '../sources/records.js';
import {
  failureReason,
  type SourceAttempt,
  type SourceCounts,
  type SourceOutcome,
  type Store,
  type SourceState as StoredState,
  shrinkReason,
  sourceKey,
  sourceLine,
  type YieldPolicy,
} from '../store/index.js';
import { countChannels } from './channels.js';
import type { GuideTally } from './guide.js';
import { readPlaylist } from './sources.js';
import type {
  GuideSource,
  ImportProgress,
  ImportWarning,
  LiveTvImportOptions,
  PlaylistReader,
  PlaylistSource,
  SourceReport,
} from './types.js';

/** What every source of one import is judged against. */
export interface Judging {
  readonly store: Store;
  /** The live-TV sources' stored states, by key. */
  readonly states: ReadonlyMap<string, StoredState>;
  /**
   * The store serves data imported before sources had states (no copies to fall back on): a bad
   * source then fails the whole import, as it always did, and the previous data stays served.
   */
  readonly legacy: boolean;
  readonly policy: YieldPolicy;
}

/** What is known of one source in this import, and what it is judged to be. */
interface Plan {
  readonly kind: 'playlist' | 'guide';
  readonly location: string;
  readonly label: string;
  readonly key: string;
  readonly state: StoredState | undefined;
  outcome: SourceOutcome;
  reason?: string;
  counts?: SourceCounts;
  validators?: SourceValidators;
  report?: SourceReport;
}

export interface PlaylistPlan extends Plan {
  readonly kind: 'playlist';
  readonly source: PlaylistSource;
  /** Fresh and good: the copy of its bytes made while it was read (stored with the import). */
  file?: string;
  /** Fresh and good: parsed, for the first pass only (dropped once its channels are stored). */
  playlist?: Playlist;
}

export interface GuidePlan extends Plan {
  readonly kind: 'guide';
  readonly source: GuideSource & { readonly namedBy?: string };
  /** Where the next pass reads it: the source itself, its copy in the work folder, its last good copy, or not at all. */
  from: 'network' | 'file' | 'copy' | 'none';
  /** The copy of this import's read, in the work folder. */
  file?: string;
  /** Set once the conditional read answered "not modified". */
  notModified?: boolean;
  tally?: GuideTally;
}

export function judging(store: Store, policy: YieldPolicy): Judging {
  const states = store.sourceStates('livetv');
  return {
    store,
    states: new Map(states.map((s) => [s.key, s])),
    legacy: states.length === 0 && store.counts().channels > 0,
    policy,
  };
}

function plan<K extends 'playlist' | 'guide'>(j: Judging, kind: K, location: string, label?: string) {
  const key = sourceKey(kind, location);
  return {
    kind,
    location,
    label: label ?? redactLocation(location),
    key,
    state: j.states.get(key),
    outcome: 'imported' as SourceOutcome,
  };
}

/** The kind a plan is reported and recorded as: a reader's own (`xtream`), else playlist or guide. */
function kindOf(p: PlaylistPlan | GuidePlan): SourceReport['kind'] {
  return p.kind === 'playlist' && p.source.reader ? 'xtream' : p.kind;
}

/** Does the source have a last good copy to fall back on? */
export function hasCopy(p: Plan): boolean {
  return p.state?.copyBytes !== undefined && p.state.goodAt !== undefined;
}

/**
 * Marks `p` bad for `reason`: kept from its last good copy, or contributing nothing when it has
 * none. Throws IMPORT_FAILED on a legacy store.
 */
export function judgeBad(j: Judging, p: Plan, reason: string): void {
  if (j.legacy) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `${p.kind} ${p.label} ${reason}; nothing was imported (this store has no last good copy of its sources yet), ` +
        'the previous data is still served',
      { details: { source: p.label } },
    );
  }
  p.outcome = hasCopy(p) ? 'kept' : 'none';
  p.reason = reason;
  delete p.counts;
  delete p.validators;
}

/**
 * Reads and judges one playlist: conditionally (when `validators` are known and a last good copy
 * exists to serve instead), on content (notAPlaylist), by its channels and against the shrink guard.
 */
export async function planPlaylist(
  j: Judging,
  source: PlaylistSource,
  sourceOptions: SourceOptions,
  options: LiveTvImportOptions,
  validators: SourceValidators | undefined,
  copy: CopyFile,
  warn: (warning: ImportWarning) => void,
  onProgress?: (progress: ImportProgress) => void,
): Promise<PlaylistPlan> {
  const p: PlaylistPlan = { ...plan(j, 'playlist', source.location, source.reader?.label), source };
  const conditional = validators !== undefined && hasCopy(p);
  let read: Awaited<ReturnType<typeof readPlaylist>>;
  try {
    read = source.reader
      ? await readByReader(source.reader, sourceOptions, copy, onProgress)
      : await readPlaylist(
          source,
          { ...sourceOptions, copyTo: copy, ...(conditional ? { previous: validators } : {}) },
          onProgress,
        );
  } catch (error) {
    copy.discard();
    judgeBad(j, p, failureReason(error, p.label, sourceOptions.signal));
    if (validators) p.validators = validators;
    return p;
  }
  p.report = read.report;
  if (read.text === undefined) {
    copy.discard();
    p.outcome = 'unchanged';
    if (p.state?.goodCounts) p.counts = p.state.goodCounts;
    if (read.validators) p.validators = read.validators;
    return p;
  }
  const text = read.text;
  let reason: string | undefined;
  let playlist: Playlist | undefined;
  try {
    reason = source.reader ? undefined : notAPlaylist(text);
    if (reason === undefined)
      playlist = source.reader ? source.reader.parse(text) : parseM3u(text, p.label, m3uLimits(options));
  } catch (error) {
    reason = failureReason(error, p.label, sourceOptions.signal);
  }
  if (playlist !== undefined) {
    const channels = countChannels({ playlist, source: p.label, shiftHours: source.shiftHours ?? 0 }, options);
    reason =
      channels === 0
        ? `holds no channel to serve (${playlist.entries.length} entries read; none left after the group filters and URL checks)`
        : shrinkReason(p.state, 'channels', 'channels', channels, j.policy, source.location, p.label);
    p.counts = { channels };
  }
  if (reason !== undefined || playlist === undefined) {
    copy.discard();
    judgeBad(j, p, reason ?? 'is not a playlist');
    if (validators) p.validators = validators;
    return p;
  }
  for (const w of playlist.warnings) warn(w);
  p.playlist = playlist;
  await copy.finish();
  p.file = copy.path;
  if (read.validators) p.validators = read.validators;
  return p;
}

/**
 * The playlist `p` as a pass reads it: parsed fresh (first pass), or from its copy in this import
 * or its last good copy; undefined when it contributes nothing. Warnings of copies were reported
 * when they were imported and are not repeated.
 */
export async function playlistOf(
  j: Judging,
  p: PlaylistPlan,
  maxBytes: number,
  options: LiveTvImportOptions,
): Promise<Playlist | undefined> {
  if (p.playlist) {
    const playlist = p.playlist;
    delete p.playlist;
    return playlist;
  }
  if (p.outcome === 'none') return undefined;
  const chunks = p.file ? readFileChunks(p.file) : j.store.sourceCopy(p.key);
  const text = await readCopyText(chunks, p.label, maxBytes);
  return p.source.reader ? p.source.reader.parse(text) : parseM3u(text, p.label, m3uLimits(options, true));
}

/**
 * The playlist reader's limits of the import's options. A copy was counted when it was read fresh
 * (and its bytes are bounded): it is taken whole, so a limit lowered since does not turn the last
 * good data of a failing source into a failure of the whole import.
 */
function m3uLimits(options: LiveTvImportOptions, copy = false) {
  const limits = entryLimits(options.limits);
  return { maxEntries: copy ? Number.POSITIVE_INFINITY : limits.maxEntries, maxNameLength: limits.maxNameLength };
}

/**
 * Reads a playlist by its reader: its text is written to `copy` (the copy kept when it imports
 * well), and reported like a playlist read.
 */
async function readByReader(
  reader: PlaylistReader,
  options: SourceOptions,
  copy: CopyFile,
  onProgress?: (progress: ImportProgress) => void,
): Promise<Awaited<ReturnType<typeof readPlaylist>> & { text: string }> {
  const started = performance.now();
  const text = await reader.read(options);
  const bytes = Buffer.byteLength(text);
  await copy.write(Buffer.from(text, 'utf8'));
  onProgress?.({ phase: 'playlist', source: reader.label, bytes, totalBytes: bytes, records: 0 });
  return {
    source: { location: reader.label, reader },
    label: reader.label,
    text,
    report: {
      kind: 'xtream',
      location: reader.label,
      status: 'fetched',
      outcome: 'imported',
      bytes,
      durationMs: Math.round(performance.now() - started),
      records: 0,
      warnings: 0,
    },
  };
}

/** The guide plans of an import, with conditional reads where a last good copy can stand in. */
export function planGuides(j: Judging, guides: readonly (GuideSource & { readonly namedBy?: string })[]): GuidePlan[] {
  return guides.map((source) => ({ ...plan(j, 'guide', source.location), source, from: 'network' }));
}

/**
 * Judges a guide read in full from the source (its yield once matched): no programme with a
 * valid time, nothing for our channels (`nothing` says why: guide-yield.ts), or shrunk past the
 * guard, and it is bad.
 */
export function judgeGuide(j: Judging, g: GuidePlan, matched: number, nothing?: () => string | undefined): void {
  const tally = g.tally!;
  g.counts = { programmes: matched, read: tally.programmes };
  const reason =
    tally.programmes === 0
      ? 'holds no programme with a valid start and stop'
      : ((matched === 0 ? nothing?.() : undefined) ??
        shrinkReason(g.state, 'programmes', 'programmes for our channels', matched, j.policy, g.location, g.label));
  if (reason !== undefined) judgeBad(j, g, reason);
}

/** The attempt of a plan as the store records it, with its copy when imported. */
export function attemptOf(
  p: PlaylistPlan | GuidePlan,
  copy?: () => Iterable<Uint8Array> | { readonly file: string },
): SourceAttempt {
  return {
    key: p.key,
    kind: kindOf(p),
    label: p.label,
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(p.counts !== undefined && (p.outcome === 'imported' || p.outcome === 'unchanged') ? { counts: p.counts } : {}),
    ...(p.outcome === 'imported' && copy ? { copy: copy() } : {}),
  };
}

/** The report line of a plan, completed with its outcome. */
export function reportOf(p: PlaylistPlan | GuidePlan, now: number): SourceReport {
  const base: SourceReport = p.report ?? {
    kind: kindOf(p),
    location: p.label,
    status: 'failed',
    outcome: p.outcome,
    bytes: 0,
    durationMs: 0,
    records: 0,
    warnings: 0,
  };
  const bad = p.outcome === 'kept' || p.outcome === 'none';
  const state = p.state;
  const lastGood = state?.goodAt !== undefined ? { at: state.goodAt, counts: state.goodCounts ?? {} } : undefined;
  const stateNow: StoredState | undefined = bad && state ? { ...state, keptSince: state.keptSince ?? now } : state;
  return {
    ...base,
    ...(bad ? { status: 'failed' as const } : {}),
    outcome: p.outcome,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(bad ? { message: sourceLine(attemptOf(p), stateNow) } : {}),
    ...(p.counts !== undefined ? { counts: p.counts } : {}),
    ...(lastGood ? { lastGood } : {}),
    ...(bad ? { keptSince: stateNow?.keptSince ?? now } : {}),
    ...('namedBy' in p.source && p.source.namedBy !== undefined ? { namedBy: p.source.namedBy } : {}),
  };
}
