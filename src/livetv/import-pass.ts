/**
 * One pass of the live-TV import: the playlists' channels stored (with what matching keeps of
 * them), and each guide streamed in from its source, its copy or its last good copy.
 */
import { MarqueeError } from '../errors.js';
import type { SourceOptions, SourceStream } from '../sources/input/index.js';
import { openCopy, openSource, readFileChunks, SOURCE_LIMITS } from '../sources/input/index.js';
import { StringInterner } from '../sources/xmltv/index.js';
import { failureReason, type LiveTvImport } from '../store/index.js';
import { type ChannelGroups, groupChannels } from './channel-groups.js';
import { type PlaylistInput, STREAMS_NOT_SERVED, type StreamsOverCap } from './channels.js';
import { type GuideContext, importGuide, newGuideTally } from './guide.js';
import type { WorkDir } from './import-work.js';
import type { EntryList, MatchChannel } from './match-step.js';
import { type GuidePlan, hasCopy, type Judging, judgeBad, type PlaylistPlan, playlistOf } from './plan.js';
import type { ImportWarning, LiveTvImportOptions } from './types.js';

const MiB = 1024 * 1024;

/** Channels from which an import is large (LiveTvImportOptions.onLargeGarbage). */
export const LARGE_IMPORT_CHANNELS = 100_000;
/** A playlist's text, read back from a copy, is capped as the playlist itself is. */
const PLAYLIST_MAX_BYTES = SOURCE_LIMITS.playlist.maxBytes;

/**
 * Adds the channels of `groups` to the import, drafted one at a time, and returns what matching
 * and the report keep of them and of the playlist `entries`, as strings of their own: strings cut
 * from the playlist text would keep all of it alive while the guides stream (the 50,000-entry
 * benchmark playlist holds about 50 MB in memory). In a function of its own, so that the
 * interner's table goes with it.
 */
export function storedChannels(imp: LiveTvImport, groups: ChannelGroups, entries: EntryList): MatchChannel[] {
  const own = new StringInterner();
  const subjects: MatchChannel[] = new Array(groups.length);
  for (let i = 0; i < groups.length; i++) {
    const channel = groups.draft(i);
    imp.addChannel(channel);
    subjects[i] = {
      id: channel.id,
      name: own.intern(channel.name),
      ...(channel.tvgId !== undefined ? { tvgId: own.intern(channel.tvgId) } : {}),
      ...(channel.tvgName !== undefined ? { tvgName: own.intern(channel.tvgName) } : {}),
      ...(channel.group !== undefined ? { group: own.intern(channel.group) } : {}),
      ...(channel.country !== undefined ? { country: own.intern(channel.country) } : {}),
      shiftHours: channel.shiftHours,
      source: channel.source,
    };
  }
  // Most entries are named as their channel: that name is kept once.
  entries.keepNames((name, channel) => (name === subjects[channel]!.name ? undefined : own.intern(name)));
  return subjects;
}

export interface GuideReader {
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
export async function passGuide(r: GuideReader, g: GuidePlan, index: number, opened?: SourceStream): Promise<boolean> {
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

/**
 * The channels of this pass's playlists (fresh, or read back from copies), added to `imp`: what
 * matching keeps of them (storedChannels), and the guides the playlists' headers name. Nothing of
 * the playlists outlives this call (the caller's frame, suspended at its next await, would keep it).
 */
export async function passChannels(
  j: Judging,
  plans: readonly PlaylistPlan[],
  options: LiveTvImportOptions,
  warn: (warning: ImportWarning) => void,
  stays: string,
  entries: EntryList,
  imp: LiveTvImport,
) {
  const inputs: PlaylistInput[] = [];
  const headerGuides: { location: string; namedBy: string }[] = [];
  for (const p of plans) {
    const playlist = await playlistOf(j, p, PLAYLIST_MAX_BYTES, options);
    if (playlist === undefined) continue;
    for (const url of playlist.header.guideUrls) {
      if (!headerGuides.some((g) => g.location === url)) headerGuides.push({ location: url, namedBy: p.label });
    }
    inputs.push({ playlist, source: p.label, origin: p.key, shiftHours: p.source.shiftHours ?? 0 });
    if (p.report && p.outcome === 'imported') {
      p.report = { ...p.report, records: playlist.entries.length, warnings: playlist.warnings.length };
    }
  }
  const over: StreamsOverCap = { total: 0, bySource: new Map() };
  const channels = groupChannels(inputs, options, warn, entries, over);
  if (channels.length >= LARGE_IMPORT_CHANNELS) options.onLargeGarbage?.();
  // What each playlist read fresh yields, with the streams the cap left out (marquee status says it).
  for (const p of plans) {
    const left = over.bySource.get(p.label);
    if (left !== undefined && p.outcome === 'imported') p.counts = { ...p.counts, [STREAMS_NOT_SERVED]: left };
  }
  if (channels.length === 0) {
    throw new MarqueeError(
      'IMPORT_FAILED',
      `${plans.map((p) => p.label).join(', ')}: no channel to serve (none left after the group filters and URL checks); ${stays}`,
    );
  }
  return { subjects: storedChannels(imp, channels, entries), headerGuides, streamsOverCap: over.total };
}
