/**
 * One source set's import: the user's playlist, guide and Xtream account into the set's own
 * store, with the operator's read limits and the private-address rule on every URL (the user's,
 * each redirect, and the guides a playlist names). Each part keeps the last-good rule of its
 * backend. The outcome is plain JSON (it crosses from a worker thread) and holds no credentials.
 */
import { importLibrary } from '../library/index.js';
import { importLiveTv, type PlaylistSource, type SourceState } from '../livetv/index.js';
import type { EntryLimits } from '../sources/entry-limits.js';
import { isForbiddenAddress, redactLocation, type SourceOptions } from '../sources/input/index.js';
import { xtreamSource } from '../sources/xtream/index.js';
import type { Store } from '../store/index.js';
import { userProblem } from './problem-text.js';
import type { HostedSources } from './sources.js';

export interface SetImportOptions {
  /** `--allow-private-sources`: user URLs may reach loopback and private addresses. */
  readonly allowPrivate?: boolean;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /**
   * The count and length limits of the operator's settings (entries, guide channels, names,
   * programme texts; streams per channel; library items): a user's sources are read with them.
   */
  readonly limits?: SetLimits;
  readonly previous?: SourceState;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: SetProgress) => void;
}

/** The count and length limits of a set's import (plain data: they cross into its worker). */
export interface SetLimits extends Partial<EntryLimits> {
  readonly maxStreamsPerChannel?: number;
  readonly maxProgrammesPerDay?: number;
  readonly maxLogoLength?: number;
  readonly maxItems?: number;
  readonly maxEpisodesPerSeries?: number;
}

export interface SetProgress {
  readonly phase: string;
  /** The source being read, credentials redacted. */
  readonly source?: string;
  readonly bytes?: number;
  readonly records?: number;
}

export interface SetCounts {
  readonly channels: number;
  /** Channels with at least one programme. */
  readonly withGuide: number;
  readonly programmes: number;
  readonly movies: number;
  readonly series: number;
}

/** What went wrong with one of the user's sources, said without its secrets. */
export interface SetProblem {
  /** The config field of the source (`playlist`, `epg`, `xtreamUrl`), or `sources` for the whole set. */
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

export interface SetImportResult {
  /** `imported`: data is served; `failed`: nothing usable (earlier data, if any, is still served). */
  readonly outcome: 'imported' | 'failed';
  readonly counts: SetCounts;
  readonly problems: readonly SetProblem[];
  readonly state?: SourceState;
}

/** The address policy of user sources: public addresses only, unless the operator allows private ones. */
export function userAddressPolicy(allowPrivate: boolean | undefined): (address: string) => boolean {
  return allowPrivate === true ? () => true : (address) => !isForbiddenAddress(address);
}

/** Counts of what the store serves now. */
export function setCounts(store: Store): SetCounts {
  const live = store.counts();
  const library = store.libraryCounts();
  return {
    channels: live.channels,
    withGuide: live.matchedChannels,
    programmes: live.programmes,
    movies: library.movies ?? 0,
    series: library.series ?? 0,
  };
}

/**
 * Import `sources` into `store` (the set's own file).
 * @example const result = await importSourceSet(openStore('set.db'), { playlist: 'https://tv.example/a.m3u' })
 */
export async function importSourceSet(
  store: Store,
  sources: HostedSources,
  options: SetImportOptions = {},
): Promise<SetImportResult> {
  const limits = {
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
    // The backends trust the operator's own sources; these are a user's: the policy decides every hop.
    allowAddress: userAddressPolicy(options.allowPrivate),
  };
  const read: SourceOptions = { ...limits, allowFiles: false };
  const { maxStreamsPerChannel, maxProgrammesPerDay, maxLogoLength, maxItems, maxEpisodesPerSeries, ...entry } =
    options.limits ?? {};
  const problems: SetProblem[] = [];
  const account =
    sources.xtreamUrl !== undefined
      ? xtreamSource({ url: sources.xtreamUrl, username: sources.xtreamUser, password: sources.xtreamPass }, read, {
          ...entry,
          ...(maxItems !== undefined ? { maxItems } : {}),
        })
      : undefined;
  const playlists: PlaylistSource[] = [
    ...(sources.playlist !== undefined ? [{ location: sources.playlist }] : []),
    ...(account?.live ? [{ location: account.account.location, reader: account.live }] : []),
  ];
  const fieldOf = (location: string, kind: string) =>
    kind === 'xtream'
      ? 'xtreamUrl'
      : location === sources.playlist
        ? 'playlist'
        : location === sources.epg
          ? 'epg'
          : kind === 'guide'
            ? 'epg'
            : 'playlist';
  let state: SourceState | undefined;
  let liveOk = false;
  try {
    const live = await importLiveTv(store, {
      playlists,
      ...(sources.epg !== undefined ? { guides: [{ location: sources.epg }] } : {}),
      sourceOptions: limits,
      limits: entry,
      ...(maxStreamsPerChannel !== undefined ? { maxStreamsPerChannel } : {}),
      ...(maxProgrammesPerDay !== undefined ? { maxProgrammesPerDay } : {}),
      ...(maxLogoLength !== undefined ? { maxLogoLength } : {}),
      allowPrivateSources: options.allowPrivate === true,
      ...(options.previous ? { previous: options.previous } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress
        ? {
            onProgress: (p) =>
              options.onProgress?.({ phase: p.phase, source: p.source, bytes: p.bytes, records: p.records }),
          }
        : {}),
    });
    liveOk = true;
    state = live.state;
    for (const s of live.sources) {
      if (s.outcome !== 'none' && s.outcome !== 'kept') continue;
      problems.push({
        field: fieldOf(s.location, s.kind),
        code: 'SOURCE_INVALID',
        message: userProblem(s.kind, redactLocation(s.location), s.reason),
      });
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'IMPORT_FAILED';
    // The cause per source, as the import recorded it: the whole-import message is an operator's.
    const failed = failedPlaylists(store);
    if (failed.length > 0) {
      for (const s of failed) {
        problems.push({
          field: s.kind === 'xtream' ? 'xtreamUrl' : 'playlist',
          code,
          message: userProblem(s.kind, s.label, s.reason),
        });
      }
    } else
      problems.push({ field: sources.playlist !== undefined ? 'playlist' : 'xtreamUrl', code, message: clean(error) });
  }
  if (account?.library) {
    try {
      await importLibrary(store, {
        files: [],
        sources: [account.library],
        read: {
          ...(maxItems !== undefined ? { maxItems } : {}),
          ...(entry.maxNameLength !== undefined ? { maxNameLength: entry.maxNameLength } : {}),
          ...(maxEpisodesPerSeries !== undefined ? { maxEpisodesPerSeries } : {}),
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      // An account without films or series is still a working account for its channels.
      if (!liveOk) problems.push({ field: 'xtreamUrl', code: 'SOURCE_INVALID', message: clean(error) });
    }
  }
  const counts = setCounts(store);
  const served = counts.channels > 0 || counts.movies > 0 || counts.series > 0;
  return {
    outcome: served ? 'imported' : 'failed',
    counts,
    problems,
    ...(state ? { state } : {}),
  };
}

/** The channel sources (playlists, Xtream accounts) the last attempt found bad, with their reasons. */
function failedPlaylists(store: Store): { kind: string; label: string; reason?: string }[] {
  try {
    return store
      .sourceStates('livetv')
      .filter((s) => s.kind !== 'guide' && (s.outcome === 'none' || s.outcome === 'kept') && s.reason !== undefined)
      .map((s) => ({ kind: s.kind, label: s.label, ...(s.reason !== undefined ? { reason: s.reason } : {}) }));
  } catch {
    return [];
  }
}

/** An error's message for a user: without file paths of the server (the store's). */
function clean(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/;[^;]*(\/|\\)[^;]*$/, '').slice(0, 500);
}
