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
import type { Connection } from '../connection.js';
import { openImportTransaction } from '../import-transaction.js';
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
  const format = options.channelHead?.format;
  if (format !== undefined && !(Number.isSafeInteger(format) && format > 0)) {
    throw new TypeError(`channelHead.format must be a positive integer, got ${String(format)}`);
  }
  const { db, id } = await openImportTransaction(host, {
    kind: 'livetv',
    what: 'a live-TV import',
    kept: 'the previous data',
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    ...(options.cacheKiB !== undefined ? { cacheKiB: options.cacheKiB } : {}),
    clear: (writer) => {
      // Without a WHERE clause SQLite truncates each table instead of deleting row by row.
      writer.exec('DELETE FROM streams; DELETE FROM channels; DELETE FROM guide_days; DELETE FROM guide_channels;');
      writer.exec('DELETE FROM channel_groups; DELETE FROM channel_matches;');
    },
  });
  return new Import(host, db, id, options);
}
