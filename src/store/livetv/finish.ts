/**
 * The commit-time steps of a live-TV import, run inside its write transaction: drop guide data
 * no channel shows, keep one programme per (guide channel, start), build the programme index,
 * resolve overlaps between sources by priority, store each guide channel's longest programme
 * (the bound that turns day queries into index range scans), rebuild the group list, and count
 * what is served.
 */
import type { Connection } from '../connection.js';
import { PROGRAMMES_INDEX_SQL } from '../migrations/livetv.js';
import type { LiveTvCounts } from './types.js';

/** What the import tracked while rows were added (kept in memory: a few entries per guide channel). */
export interface ImportTally {
  channels: number;
  streams: number;
  /** Guide key id → number of channels showing it. */
  readonly keyChannels: Map<number, number>;
  /** Guide key ids with at least one programme written. */
  readonly keysWithProgrammes: Set<number>;
  /** Guide key id → longest programme written (an upper bound once rows are replaced or deleted). */
  readonly keyMaxDuration: Map<number, number>;
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
}

/** Runs the commit steps on `db` (inside the import transaction) and returns the served counts. */
function deleteKeys(db: Connection, keyIds: number[]): number {
  return db
    .prepare('DELETE FROM programmes WHERE key_id IN (SELECT value FROM json_each(?))')
    .run(JSON.stringify(keyIds)).changes;
}

export function finishLiveTv(db: Connection, tally: ImportTally): FinishResult {
  // Before the index exists, one scan deletes every unused guide channel's programmes.
  const unused = [...tally.keysWithProgrammes].filter((keyId) => !tally.keyChannels.has(keyId));
  const unusedGuide = unused.length === 0 ? 0 : deleteKeys(db, unused);
  for (const keyId of unused) tally.keysWithProgrammes.delete(keyId);

  // Equal start on one key: the best priority stays, then the first written. Only keys whose
  // programmes did not arrive in increasing start order can hold such pairs.
  const unordered = [...tally.unordered].filter((keyId) => tally.keysWithProgrammes.has(keyId));
  if (unordered.length > 0) {
    db.prepare(`
      DELETE FROM programmes WHERE rowid IN (
        SELECT rowid FROM (
          SELECT rowid, row_number() OVER (PARTITION BY key_id, start ORDER BY prio, rowid) AS place
          FROM programmes WHERE key_id IN (SELECT value FROM json_each(?)))
        WHERE place > 1)`).run(JSON.stringify(unordered));
  }
  db.exec(PROGRAMMES_INDEX_SQL);

  // A programme is dropped when a higher-priority source has one overlapping it on the same key.
  // One statement per key: SQLite collects the rows to delete before deleting, so every
  // comparison is against the programmes as given. The window on h.start keeps it a range scan.
  let overlapped = 0;
  const deleteOverlaps = db.prepare(`
    DELETE FROM programmes AS p WHERE p.key_id = @key AND EXISTS (
      SELECT 1 FROM programmes AS h
      WHERE h.key_id = @key AND h.start > p.start - @maxDuration AND h.start < p.stop AND h.stop > p.start AND h.prio < p.prio)`);
  for (const keyId of tally.mixedPriorities) {
    if (!tally.keysWithProgrammes.has(keyId)) continue;
    overlapped += deleteOverlaps.run({ key: keyId, maxDuration: tally.keyMaxDuration.get(keyId) ?? 0 }).changes;
  }

  const setMaxDuration = db.prepare('UPDATE guide_channels SET max_duration = ? WHERE id = ?');
  for (const keyId of tally.keysWithProgrammes) setMaxDuration.run(tally.keyMaxDuration.get(keyId) ?? 0, keyId);

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
      programmes: count('SELECT count(*) FROM programmes'),
      matchedChannels,
      unmatchedChannels: tally.channels - matchedChannels,
      groups: count('SELECT count(*) FROM channel_groups'),
    },
    overlapped,
    unusedGuide,
  };
}
