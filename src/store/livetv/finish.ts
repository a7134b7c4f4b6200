/**
 * The commit-time steps of a live-TV import, run inside its write transaction: drop guide data
 * no channel shows, apply the merge rules to the keys that need them (merge.ts) and group their
 * programmes into guide days, join guide days written in parts, rebuild the group list, and
 * count what is served; and the import's report.
 */
import type { Connection } from '../connection.js';
import { boundedDetails } from '../imports.js';
import type { DayCap } from './day-cap.js';
import type { GuideDayWriter } from './guide-days.js';
import type { MergeTable } from './merge.js';
import type { CommitInput, LiveTvCounts, LiveTvDropped, LiveTvImportReport, OverDayCap } from './types.js';

/** What the import tracked while rows were added (kept in memory: a few entries per guide channel). */
export interface ImportTally {
  channels: number;
  streams: number;
  /** Guide key id → number of channels showing it. */
  readonly keyChannels: Map<number, number>;
  /** Guide key id → programmes written straight into guide days (keys in the merge table are not here). */
  readonly keyProgrammes: Map<number, number>;
  /** Guide key ids with at least one programme written. */
  readonly keysWithProgrammes: Set<number>;
  /** Guide key id → priority of its first programme; a key in `mixedPriorities` had several. */
  readonly keyPriority: Map<number, number>;
  readonly mixedPriorities: Set<number>;
  /** Guide key id → start of its last programme written; a key in `unordered` went back in time (maybe a duplicate start). */
  readonly keyLastStart: Map<number, number>;
  readonly unordered: Set<number>;
}

export interface FinishResult {
  readonly counts: LiveTvCounts;
  readonly overlapped: number;
  readonly unusedGuide: number;
  /** Programmes read for a catch-up archive that no catch-up channel of their key needs. */
  readonly past: number;
  /** Programmes of merged keys past the day cap (those of keys in order were never written). */
  readonly overDayCap: number;
}

/** Runs the commit steps on `db` (inside the import transaction) and returns the served counts. */
export function finishLiveTv(
  db: Connection,
  tally: ImportTally,
  days: GuideDayWriter,
  merging: MergeTable,
  keepFrom: (keyId: number) => number = () => Number.NEGATIVE_INFINITY,
  dayCap?: DayCap,
): FinishResult {
  // Guide channels no channel shows: their programmes go.
  const unused = [...tally.keysWithProgrammes].filter((keyId) => !tally.keyChannels.has(keyId));
  let unusedGuide = 0;
  for (const keyId of unused) {
    unusedGuide += (tally.keyProgrammes.get(keyId) ?? 0) + (merging.keys.get(keyId) ?? 0);
    tally.keyProgrammes.delete(keyId);
    tally.keysWithProgrammes.delete(keyId);
  }
  days.drop(unused);

  // Keys that need the merge rules: resolved one by one, then written as guide days like the others.
  let programmes = 0;
  for (const count of tally.keyProgrammes.values()) programmes += count;
  let overlapped = 0;
  let past = 0;
  const capBefore = dayCap?.dropped ?? 0;
  merging.finish();
  for (const keyId of merging.keys.keys()) {
    if (!tally.keysWithProgrammes.has(keyId)) continue;
    const resolved = merging.resolve(keyId);
    overlapped += resolved.overlapped;
    // Programmes older than the retention were read for catch-up: kept as far back as this key's channels play.
    const from = keepFrom(keyId);
    const current = resolved.kept.filter((p) => p.stop > from);
    past += resolved.kept.length - current.length;
    const capped = dayCap === undefined ? current : dayCap.keep(keyId, current);
    const kept = capped.length;
    for (const p of capped) days.add(keyId, p.start, p.stop, p.video);
    programmes += kept;
    if (kept === 0 && !tally.keyProgrammes.has(keyId)) tally.keysWithProgrammes.delete(keyId);
  }
  merging.close();
  days.finish();

  // A group's place is that of its first channel in catalog order (sort, then insertion).
  db.exec(`
    INSERT INTO channel_groups (name, first_sort, first_rid, channels)
    SELECT grp, sort, rid, n FROM (
      SELECT grp, sort, rid, row_number() OVER (PARTITION BY grp ORDER BY sort, rid) AS place,
             count(*) OVER (PARTITION BY grp) AS n
      FROM channels WHERE grp IS NOT NULL)
    WHERE place = 1`);

  let matchedChannels = 0;
  for (const keyId of tally.keysWithProgrammes) matchedChannels += tally.keyChannels.get(keyId) ?? 0;
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    counts: {
      channels: tally.channels,
      streams: tally.streams,
      guideChannels: count('SELECT count(*) FROM guide_channels'),
      programmes,
      matchedChannels,
      unmatchedChannels: tally.channels - matchedChannels,
      groups: count('SELECT count(*) FROM channel_groups'),
    },
    overlapped,
    unusedGuide,
    past,
    overDayCap: (dayCap?.dropped ?? 0) - capBefore,
  };
}

/**
 * The import's report: what `finishLiveTv` dropped added to what was dropped while adding
 * (`dropped`), the rest of the `written` programmes counted as duplicates.
 * @example const report = finishReport(result, dropped, written, { warnings: 3 }, startedAt)
 */
export function finishReport(
  result: FinishResult,
  dropped: Omit<LiveTvDropped, 'overlapped' | 'duplicate'>,
  written: number,
  input: CommitInput,
  startedAt: number,
  overDayCap?: OverDayCap,
): LiveTvImportReport {
  const { programmes } = result.counts;
  const all: LiveTvDropped = {
    ...dropped,
    past: dropped.past + result.past,
    unusedGuide: dropped.unusedGuide + result.unusedGuide,
    overDayCap: dropped.overDayCap + result.overDayCap,
    overlapped: result.overlapped,
    duplicate: written - programmes - result.overlapped - result.unusedGuide - result.past - result.overDayCap,
  };
  const details = boundedDetails(input.details);
  return {
    counts: result.counts,
    dropped: all,
    ...(overDayCap !== undefined ? { overDayCap } : {}),
    warnings: input.warnings ?? 0,
    durationMs: Date.now() - startedAt,
    ...(details === undefined ? {} : { details }),
  };
}
