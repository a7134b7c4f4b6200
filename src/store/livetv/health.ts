/**
 * Stream health in the store: one row per stream URL (`stream_health`, migration
 * health-001-stream-health) beside the streams, so it survives re-imports of an unchanged URL. A
 * health pass writes what it found in one short transaction (health-record.ts); serving only reads.
 */
import type { Connection } from '../connection.js';

/** The `imports.kind` of a health pass. */
export const HEALTH_IMPORT_KIND = 'health';

export type StreamHealthState = 'ok' | 'dead' | 'blocked' | 'not-media' | 'timeout';

/** What the checks of a stream URL found, as served beside the stream. */
export interface StreamHealth {
  /** The last check's verdict. */
  readonly state: StreamHealthState;
  readonly detail?: string;
  readonly checkedAt: number;
  /** Consecutive checks that were not ok (0 when the last one was). */
  readonly failures: number;
  /** The first of those checks. */
  readonly failingSince?: number;
  readonly lastOkAt?: number;
}

/** A stream URL to check, with the request headers of its first entry and its last check. */
export interface HealthTarget {
  readonly url: string;
  readonly userAgent?: string;
  readonly referrer?: string;
  /** The source keys (`streams.origin`) of the entries with this URL; empty for streams stored before origins. */
  readonly origins: readonly string[];
  readonly state?: StreamHealthState;
  readonly checkedAt?: number;
  readonly etag?: string;
  readonly lastModified?: string;
}

/** One verdict of a pass, to record. */
export interface HealthResult {
  readonly url: string;
  readonly state: StreamHealthState;
  readonly detail: string;
  /** When it was seen (epoch ms). */
  readonly at: number;
  readonly etag?: string;
  readonly lastModified?: string;
}

/** A stream whose state a pass changed. */
export interface HealthChange {
  readonly url: string;
  readonly from?: StreamHealthState;
  readonly to: StreamHealthState;
  readonly detail?: string;
  readonly at: number;
}

/** How many stream URLs of one source are in each state. */
export interface HealthCounts {
  /** The source key (`streams.origin`); '' for streams stored before origins were kept. */
  readonly origin: string;
  readonly ok: number;
  readonly dead: number;
  readonly blocked: number;
  readonly notMedia: number;
  readonly timeout: number;
  readonly unchecked: number;
}

/** A stream that changed state, with where it is served: for `marquee status --json`. */
export interface HealthChangeRow extends HealthChange {
  readonly channelId: string;
  readonly channelName: string;
  readonly streamName?: string;
  readonly origin?: string;
  /** The source the stream came from, as its state names it (the location, credentials redacted). */
  readonly source?: string;
  /** The line of the stream's entry in that source. */
  readonly line?: number;
}

const STATES = new Set<string>(['ok', 'dead', 'blocked', 'not-media', 'timeout']);
const stateOf = (value: unknown): StreamHealthState | undefined =>
  typeof value === 'string' && STATES.has(value) ? (value as StreamHealthState) : undefined;
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The health read from the columns `state, detail, checked_at, failures, failing_since, last_ok_at` at `at`. */
export function healthFromRaw(r: readonly unknown[], at: number): StreamHealth | undefined {
  const state = stateOf(r[at]);
  if (state === undefined) return undefined;
  const detail = text(r[at + 1]);
  const failingSince = num(r[at + 4]);
  const lastOkAt = num(r[at + 5]);
  return {
    state,
    ...(detail !== undefined ? { detail } : {}),
    checkedAt: r[at + 2] as number,
    failures: r[at + 3] as number,
    ...(failingSince !== undefined ? { failingSince } : {}),
    ...(lastOkAt !== undefined ? { lastOkAt } : {}),
  };
}

/** The health reads of the store's read connection. */
export function healthReads(db: Connection) {
  const streams = db
    .prepare(
      `SELECT s.url, s.user_agent, s.referrer, s.origin, h.state, h.checked_at, h.etag, h.last_modified
       FROM streams s LEFT JOIN stream_health h ON h.url = s.url ORDER BY s.channel_rid, s.ord`,
    )
    .raw();
  const dead = db
    .prepare(
      `SELECT c.id, c.rid FROM channels c
       WHERE EXISTS (SELECT 1 FROM streams s WHERE s.channel_rid = c.rid)
         AND NOT EXISTS (SELECT 1 FROM streams s LEFT JOIN stream_health h ON h.url = s.url
                         WHERE s.channel_rid = c.rid AND coalesce(h.failures, 0) < ?)
       ORDER BY c.sort, c.rid`,
    )
    .raw();
  const anyFailing = db.prepare('SELECT EXISTS (SELECT 1 FROM stream_health WHERE failures >= ?)').pluck();
  const counts = db
    .prepare(
      `SELECT coalesce(u.origin, ''), h.state, count(*) FROM
         (SELECT DISTINCT origin, url FROM streams) u LEFT JOIN stream_health h ON h.url = u.url
       GROUP BY 1, 2`,
    )
    .raw();
  const changes = db
    .prepare(
      // The bare columns come from the row of min(c.sort): the stream's first channel in catalog order.
      `SELECT h.url, h.previous_state, h.state, h.detail, h.changed_at, c.id, c.name, s.name, s.origin, min(c.sort),
         ss.label, s.line
       FROM stream_health h JOIN streams s ON s.url = h.url JOIN channels c ON c.rid = s.channel_rid
         LEFT JOIN source_states ss ON ss.key = s.origin
       WHERE h.changed_at >= ? GROUP BY h.url ORDER BY h.changed_at, h.url LIMIT ?`,
    )
    .raw();
  return {
    /**
     * Every stream URL once (the request headers of its first entry, in catalog order), those never
     * checked first, then the longest unchecked: a pass cut short by its budget starts where the
     * last one stopped.
     */
    healthTargets(): HealthTarget[] {
      const byUrl = new Map<string, { target: HealthTarget; origins: Set<string> }>();
      for (const r of streams.iterate() as Iterable<unknown[]>) {
        const url = r[0] as string;
        const seen = byUrl.get(url);
        const origin = text(r[3]);
        if (seen) {
          if (origin !== undefined) seen.origins.add(origin);
          continue;
        }
        const origins = new Set<string>(origin !== undefined ? [origin] : []);
        const state = stateOf(r[4]);
        const target: HealthTarget = {
          url,
          ...(text(r[1]) !== undefined ? { userAgent: r[1] as string } : {}),
          ...(text(r[2]) !== undefined ? { referrer: r[2] as string } : {}),
          origins: [],
          ...(state !== undefined ? { state, checkedAt: r[5] as number } : {}),
          ...(text(r[6]) !== undefined ? { etag: r[6] as string } : {}),
          ...(text(r[7]) !== undefined ? { lastModified: r[7] as string } : {}),
        };
        byUrl.set(url, { target, origins });
      }
      const targets = [...byUrl.values()].map(({ target, origins }) => ({ ...target, origins: [...origins] }));
      // Stable: equal times keep catalog order.
      return targets.sort((a, b) => (a.checkedAt ?? -1) - (b.checkedAt ?? -1));
    },

    /**
     * The channels, in catalog order, that have streams and whose every stream failed its last
     * `failures` checks or more: their public ids, and their row ids (what `ChannelQuery.except`
     * takes). One query, for a data version; none at all when no stream has failed that often.
     */
    deadChannels(failures: number): { ids: string[]; rids: number[] } {
      if (anyFailing.get(failures) !== 1) return { ids: [], rids: [] };
      const rows = dead.all(failures) as [string, number][];
      return { ids: rows.map((r) => r[0]), rids: rows.map((r) => r[1]) };
    },

    /** Per source (`streams.origin`), how many stream URLs are in each state. */
    healthBySource(): HealthCounts[] {
      const out = new Map<string, { -readonly [K in keyof HealthCounts]: HealthCounts[K] }>();
      for (const [origin, state, n] of counts.all() as [string, string | null, number][]) {
        let row = out.get(origin);
        if (!row) {
          row = { origin, ok: 0, dead: 0, blocked: 0, notMedia: 0, timeout: 0, unchecked: 0 };
          out.set(origin, row);
        }
        const key = state === null ? 'unchecked' : state === 'not-media' ? 'notMedia' : (state as keyof HealthCounts);
        if (key in row && key !== 'origin') (row[key] as number) += n;
      }
      return [...out.values()];
    },

    /** Streams whose state changed at `since` or later (at most `limit`), oldest change first. */
    healthChanges(since: number, limit = 1000): HealthChangeRow[] {
      return (changes.all(since, Math.max(0, Math.trunc(limit))) as unknown[][]).map((r) => {
        const from = stateOf(r[1]);
        const detail = text(r[3]);
        const streamName = text(r[7]);
        const origin = text(r[8]);
        const source = text(r[10]);
        const line = num(r[11]);
        return {
          url: r[0] as string,
          ...(from !== undefined ? { from } : {}),
          to: stateOf(r[2]) ?? 'dead',
          ...(detail !== undefined ? { detail } : {}),
          at: r[4] as number,
          channelId: r[5] as string,
          channelName: r[6] as string,
          ...(streamName !== undefined ? { streamName } : {}),
          ...(origin !== undefined ? { origin } : {}),
          ...(source !== undefined ? { source } : {}),
          ...(line !== undefined ? { line } : {}),
        };
      });
    },
  };
}

export type HealthReads = ReturnType<typeof healthReads>;
