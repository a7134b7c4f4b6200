/**
 * A health pass's results into the store: one short transaction, recorded as an import of kind
 * `health`, so the data version (the response-cache key) follows it.
 */
import { MarqueeError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { isLockError, storeError } from '../errors.js';
import { withLockRetry } from '../lock.js';
import { HEALTH_IMPORT_KIND, type HealthChange, type HealthResult, type StreamHealthState } from './health.js';

export interface HealthWriter {
  readonly file: string;
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
}

/** What a pass hands to the store. */
export interface HealthPassInput {
  readonly startedAt: number;
  readonly results: readonly HealthResult[];
  /** Kept as the pass's record (`imports.report`), with `changed`, how many streams changed state. */
  readonly report: unknown;
  readonly lockTimeoutMs?: number;
}

/**
 * Record a pass in one transaction: each verdict updates its URL's row (consecutive failures,
 * since when, the last good check), rows of URLs no stream has any more go, and the pass is
 * recorded as an import of kind `health`. Returns the streams whose state changed.
 * @example await recordHealthPass(host, { startedAt, results: [{ url, state: 'dead', detail: 'HTTP 404', at }], report })
 */
export async function recordHealthPass(host: HealthWriter, pass: HealthPassInput): Promise<HealthChange[]> {
  const lockTimeoutMs = pass.lockTimeoutMs ?? 60_000;
  const db = host.openWriter(20, 1024);
  try {
    const verdicts = verdictWriter(db);
    const changes: HealthChange[] = [];
    const write = db.transaction(() => {
      changes.length = 0;
      changes.push(...verdicts(pass.results));
      db.prepare('DELETE FROM stream_health WHERE url NOT IN (SELECT url FROM streams)').run();
      const now = Date.now();
      db.prepare(`INSERT INTO imports (kind, status, started_at, finished_at, report) VALUES (?, 'ok', ?, ?, ?)`).run(
        HEALTH_IMPORT_KIND,
        pass.startedAt,
        now,
        JSON.stringify({ ...(pass.report as object), changed: changes.length }),
      );
    });
    await withLockRetry(() => write.immediate(), lockTimeoutMs);
    return changes;
  } catch (error) {
    const reason = isLockError(error)
      ? `another import is writing ${host.file} (waited ${lockTimeoutMs} ms); the health of the last pass is kept`
      : storeError(host.file, error, 'recording a health pass').message;
    throw new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: host.file } });
  } finally {
    db.close();
  }
}

/**
 * Writes verdicts into `stream_health` (on the caller's connection, inside its transaction): each
 * updates its URL's row (consecutive failures, since when, the last good check). Returns the
 * streams whose state changed.
 */
function verdictWriter(db: Connection): (results: readonly HealthResult[]) => HealthChange[] {
  const previous = db
    .prepare(
      'SELECT state, failures, failing_since, last_ok_at, changed_at, previous_state FROM stream_health WHERE url = ?',
    )
    .raw();
  const upsert = db.prepare(
    `INSERT INTO stream_health (url, state, detail, checked_at, failures, failing_since, last_ok_at, changed_at, previous_state, etag, last_modified)
     VALUES (?,?,?,?,?,?,?,?,?,?,?)
     ON CONFLICT (url) DO UPDATE SET state = excluded.state, detail = excluded.detail, checked_at = excluded.checked_at,
       failures = excluded.failures, failing_since = excluded.failing_since, last_ok_at = excluded.last_ok_at,
       changed_at = excluded.changed_at, previous_state = excluded.previous_state, etag = excluded.etag,
       last_modified = excluded.last_modified`,
  );
  return (results) => {
    const changes: HealthChange[] = [];
    for (const r of results) {
      const before = previous.get(r.url) as
        | [string, number, number | null, number | null, number | null, string | null]
        | undefined;
      const ok = r.state === 'ok';
      const failures = ok ? 0 : (before?.[1] ?? 0) + 1;
      const failingSince = ok ? null : before && before[1] > 0 ? before[2] : r.at;
      const lastOk = ok ? r.at : (before?.[3] ?? null);
      const changed = before?.[0] !== r.state;
      const changedAt = changed ? r.at : (before?.[4] ?? r.at);
      if (changed)
        changes.push({
          url: r.url,
          ...(before ? { from: before[0] as StreamHealthState } : {}),
          to: r.state,
          detail: r.detail,
          at: r.at,
        });
      upsert.run(
        r.url,
        r.state,
        r.detail.slice(0, 200),
        r.at,
        failures,
        failingSince,
        lastOk,
        changedAt,
        changed ? (before?.[0] ?? null) : (before?.[5] ?? null),
        ok ? (r.etag ?? null) : null,
        ok ? (r.lastModified ?? null) : null,
      );
    }
    return changes;
  };
}

/**
 * Records verdicts seen outside a pass (the relay found a stream failing while it played) in one
 * short transaction: stream health as a pass would leave it, with no pass recorded. Only URLs a
 * stored stream still has are written. The serving connection sees the change (data version).
 * @example await recordStreamVerdicts(host, [{ url, state: 'timeout', detail: 'relay: no bytes for 6 s', at: Date.now() }])
 */
export async function recordStreamVerdicts(
  host: HealthWriter,
  results: readonly HealthResult[],
  lockTimeoutMs = 10_000,
): Promise<HealthChange[]> {
  const db = host.openWriter(20, 256);
  try {
    const verdicts = verdictWriter(db);
    const stored = db.prepare('SELECT 1 FROM streams WHERE url = ? LIMIT 1').pluck();
    let changes: HealthChange[] = [];
    const write = db.transaction(() => {
      changes = verdicts(results.filter((r) => stored.get(r.url) !== undefined));
    });
    await withLockRetry(() => write.immediate(), lockTimeoutMs);
    return changes;
  } catch (error) {
    const reason = isLockError(error)
      ? `another import is writing ${host.file} (waited ${lockTimeoutMs} ms); the relay's verdict is not kept`
      : storeError(host.file, error, 'recording stream health').message;
    throw new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: host.file } });
  } finally {
    db.close();
  }
}
