/**
 * Starting a live-TV import. It runs on its own connection inside ONE write transaction that
 * first empties the live-TV tables and then fills them: readers on other connections keep their
 * WAL snapshot of the previous data until COMMIT, and a throw, an abort, a crash or a SIGKILL
 * before COMMIT leaves the previous data untouched with nothing to clean up (SQLite ignores
 * uncommitted WAL frames). Chosen over staged tables + a swap after measuring both: inserting
 * into freshly emptied tables is as fast as into staging tables, while the swap needed a copy
 * (or generation-named indexes) and a second copy of the data on disk. The cost: one writer
 * at a time for the whole import, so other writers wait (asynchronously) for the lock.
 */
import { MarqueeError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { isLockError, storeError } from '../errors.js';
import { finishImportRecord, startImportRecord } from '../imports.js';
import { withLockRetry } from '../lock.js';
import { Import, type LiveTvImport } from './import.js';
import type { LiveTvImportOptions } from './types.js';

export interface ImportHost {
  readonly file: string;
  /** A new connection with this busy timeout and cache size. */
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
  /** Called once when the import ends, whichever way. */
  ended(imp: LiveTvImport): void;
}

/**
 * Starts an import on a new connection, waiting (asynchronously) up to `lockTimeoutMs` for
 * another import to finish.
 *
 * @example const imp = await beginLiveTvImport(host, { languages: ['en'] })
 */
export async function beginLiveTvImport(host: ImportHost, options: LiveTvImportOptions = {}): Promise<LiveTvImport> {
  const lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  // A short busy timeout: waits for the lock happen in withLockRetry, off the event loop.
  const db = host.openWriter(20, options.cacheKiB ?? 32 * 1024);
  let id: number | undefined;
  try {
    id = await withLockRetry(() => startImportRecord(db, 'livetv', Date.now()), lockTimeoutMs);
    await withLockRetry(() => db.exec('BEGIN IMMEDIATE'), lockTimeoutMs);
    // Without a WHERE clause SQLite truncates each table instead of deleting row by row.
    db.exec('DELETE FROM streams; DELETE FROM channels; DELETE FROM programmes; DELETE FROM guide_channels;');
    db.exec('DELETE FROM channel_groups');
    // Rebuilt once at commit (finish.ts): cheaper than keeping it up to date row by row.
    db.exec('DROP INDEX programmes_key_start');
    db.pragma('busy_timeout = 2000');
  } catch (error) {
    const reason = isLockError(error)
      ? `another import is writing ${host.file} (waited ${lockTimeoutMs} ms); the previous data is still served`
      : storeError(host.file, error, 'starting a live-TV import').message;
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (id !== undefined) finishImportRecord(db, id, 'failed', { reason }, Date.now());
    } catch {
      // Best effort: the error below is what matters.
    }
    db.close();
    throw new MarqueeError('IMPORT_FAILED', reason, { cause: error, details: { file: host.file } });
  }
  return new Import(host, db, id, options);
}
