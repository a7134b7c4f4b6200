/**
 * The `imports` table: one row per import of any kind. A row is written as 'running' in its
 * own short transaction before the import's data transaction starts, so an import killed
 * midway leaves a trace; the next import (holding the write lock, so no other can be running)
 * marks such rows 'interrupted'.
 */
import type { Connection } from './connection.js';
import type { ImportRecord, ImportStatus } from './livetv/types.js';

/** Max characters of a report kept in the table; larger caller details are replaced by a note. */
export const MAX_REPORT_CHARS = 256 * 1024;

/** Inserts a 'running' import of `kind` and marks stale running rows interrupted; returns its id. Needs the write lock. */
export function startImportRecord(db: Connection, kind: string, startedAt: number): number {
  return db
    .transaction(() => {
      db.prepare(
        `UPDATE imports SET status = 'interrupted', finished_at = ?, report = json_object('reason', ?) WHERE status = 'running'`,
      ).run(startedAt, 'the process stopped before the import finished (killed, crashed or power loss)');
      return Number(
        db.prepare(`INSERT INTO imports (kind, status, started_at) VALUES (?, 'running', ?)`).run(kind, startedAt)
          .lastInsertRowid,
      );
    })
    .immediate();
}

/** Sets the final status and report of import `id` (inside the caller's transaction, if any). */
export function finishImportRecord(
  db: Connection,
  id: number,
  status: Exclude<ImportStatus, 'running'>,
  report: unknown,
  finishedAt: number,
): void {
  db.prepare('UPDATE imports SET status = ?, finished_at = ?, report = ? WHERE id = ?').run(
    status,
    finishedAt,
    JSON.stringify(report),
    id,
  );
}

/** `details` as given when its JSON is small enough, else a note saying it was left out. */
export function boundedDetails(details: unknown): unknown {
  if (details === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(details);
  } catch (error) {
    return { omitted: `details are not JSON-serialisable: ${(error as Error).message}` };
  }
  if (json === undefined) return undefined;
  if (json.length > MAX_REPORT_CHARS)
    return { omitted: `details were ${json.length} characters (max ${MAX_REPORT_CHARS})` };
  return details;
}

function fromRow(r: unknown[]): ImportRecord {
  return {
    id: r[0] as number,
    kind: r[1] as string,
    status: r[2] as ImportStatus,
    startedAt: r[3] as number,
    finishedAt: (r[4] as number | null) ?? undefined,
    report: r[5] === null ? undefined : (JSON.parse(r[5] as string) as ImportRecord['report']),
  };
}

/** Reads of the imports table for one connection, with their statements prepared once. */
export function importQueries(db: Connection) {
  const history = db
    .prepare(
      'SELECT id, kind, status, started_at, finished_at, report FROM imports WHERE kind = ? ORDER BY id DESC LIMIT ?',
    )
    .raw();
  const lastOk = db
    .prepare(
      `SELECT id, kind, status, started_at, finished_at, report FROM imports WHERE kind = ? AND status = 'ok' ORDER BY id DESC LIMIT 1`,
    )
    .raw();
  const newestOkId = db.prepare(`SELECT coalesce(max(id), 0) FROM imports WHERE status = 'ok'`).pluck();
  return {
    /** The newest `limit` imports of `kind`, newest first. */
    history: (kind: string, limit: number): ImportRecord[] => (history.all(kind, limit) as unknown[][]).map(fromRow),
    /** The newest successful import of `kind`: the one whose data is served. */
    lastOk: (kind: string): ImportRecord | undefined => {
      const row = lastOk.get(kind) as unknown[] | undefined;
      return row === undefined ? undefined : fromRow(row);
    },
    /** Id of the newest successful import of any kind, 0 when none. */
    newestOkId: (): number => newestOkId.get() as number,
  };
}
