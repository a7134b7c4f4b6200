/**
 * What stream health changes in what the client sees, from what the store holds (the checks ran
 * earlier, in a pass; nothing is checked here). A channel's streams: those whose last check did
 * not fail keep their playlist order, first; those that failed follow, the one that last played
 * first; one that failed `failuresBeforeDead` checks in a row is offline, marked `offline since
 * 14:02 UTC` (or dropped with `hideDead`). A stream never checked is served as it always was.
 */
import type { StreamHealth, StreamRow } from '../store/index.js';

/** The `health.*` settings that decide what is served. */
export interface HealthServing {
  /** Checks in a row a stream must fail to be offline. Default 2. */
  readonly failuresBeforeDead?: number;
  /** Leave offline streams out instead of marking them. Default false. */
  readonly hideDead?: boolean;
  /**
   * Leave channels whose every stream is offline out of the catalog, its guide pages and search
   * (their meta and streams still answer, so installed favourites keep working). Default false.
   */
  readonly hideDeadChannels?: boolean;
}

export const DEFAULT_FAILURES_BEFORE_DEAD = 2;

/** A stream as served: its row, and since when it is offline when it is. */
export interface ServedStream {
  readonly row: StreamRow;
  readonly offlineSince?: number;
}

const failures = (health: StreamHealth | undefined) => health?.failures ?? 0;

/**
 * A channel's streams in the order they are offered, offline ones marked or left out.
 * @example orderByHealth(rows, {}).map((s) => s.row.url) // the live backup before the dead first stream
 */
export function orderByHealth(rows: readonly StreamRow[], serving: HealthServing): ServedStream[] {
  if (!rows.some((r) => failures(r.health) > 0)) return rows.map((row) => ({ row }));
  const limit = Math.max(1, serving.failuresBeforeDead ?? DEFAULT_FAILURES_BEFORE_DEAD);
  const alive = rows.filter((r) => failures(r.health) === 0);
  // Stable: equal times keep playlist order.
  const failing = rows
    .filter((r) => failures(r.health) > 0)
    .sort((a, b) => (b.health?.lastOkAt ?? -1) - (a.health?.lastOkAt ?? -1));
  const served: ServedStream[] = alive.map((row) => ({ row }));
  for (const row of failing) {
    const offline = failures(row.health) >= limit;
    if (offline && serving.hideDead) continue;
    const since = row.health?.failingSince ?? row.health?.checkedAt;
    served.push(offline && since !== undefined ? { row, offlineSince: since } : { row });
  }
  return served;
}

const DAY = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `offline since 14:02 UTC` (within the last day), else with its day: `offline since 23 Nov 14:02 UTC`.
 * @example offlineNote(Date.parse('2026-11-24T14:02:00Z'), Date.parse('2026-11-24T18:00:00Z')) // 'offline since 14:02 UTC'
 */
export function offlineNote(since: number, now: number): string {
  const d = new Date(since);
  const time = d.toISOString().slice(11, 16);
  if (now - since < DAY) return `offline since ${time} UTC`;
  return `offline since ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${time} UTC`;
}
