/**
 * Opens one better-sqlite3 connection with the pragmas every Marquee connection uses.
 * WAL lets readers on other connections keep their snapshot while an import writes; with WAL,
 * synchronous=NORMAL is durable across process crashes (only an OS crash can lose the last
 * commits, never corrupt the file) and avoids an fsync per commit.
 */
import Database from 'better-sqlite3';
import { storeError } from './errors.js';

export type Connection = Database.Database;
/** A prepared statement taking positional parameters. */
export type Statement = Database.Statement<unknown[], unknown>;

export interface ConnectionOptions {
  /** How long a statement waits for a lock held by another connection before failing. */
  readonly busyTimeoutMs: number;
  /** Page cache of this connection, in KiB. */
  readonly cacheKiB: number;
  /**
   * Bytes of the database file SQLite may read through a memory map instead of read() calls
   * (`PRAGMA mmap_size`); 0 (the default) reads everything through the page cache.
   */
  readonly mmapBytes?: number;
  /**
   * Leave a file that is not in WAL mode yet (a new one) in SQLite's rollback-journal mode, for a
   * first import to fill (see `StoreOptions.fastFirstImport`); closeImportConnection turns WAL on
   * once that import has ended. A file already in WAL mode stays so.
   */
  readonly walLater?: boolean;
}

/**
 * Page size of a new store: 16 KiB instead of SQLite's 4 KiB. A programme row is about 400
 * bytes, so a 4 KiB page holds ten and an import of hundreds of thousands of rows does four
 * times the per-page work (B-tree splits, WAL frames, checkpoint copies): the 370 MB benchmark
 * guide imports 5 % faster into a 3 % smaller file, and guide pages read no slower. An existing
 * file keeps the page size it was created with (changing it would need a VACUUM).
 */
const NEW_STORE_PAGE_SIZE = 16 * 1024;

/** Past a checkpoint, the WAL file is truncated back to this size so one big import does not leave it huge. */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * Opens `file` (created when missing) in WAL mode, or throws STORE_UNAVAILABLE naming the file.
 *
 * @example const db = openConnection('/data/marquee.db', { busyTimeoutMs: 5000, cacheKiB: 16384 })
 */
export function openConnection(file: string, options: ConnectionOptions): Connection {
  let db: Connection | undefined;
  try {
    db = new Database(file, { timeout: options.busyTimeoutMs });
    // Takes effect only while the file is still empty; reads nothing.
    db.pragma(`page_size = ${NEW_STORE_PAGE_SIZE}`);
    // The first statement that reads the header: a garbage file fails here with SQLITE_NOTADB.
    if (options.walLater && db.pragma('journal_mode', { simple: true }) !== 'wal') {
      // Rollback journal: a commit is durable only with FULL (NORMAL may corrupt the file on an
      // OS crash in that mode); the import's pages reach the file while it runs.
      db.pragma('synchronous = FULL');
    } else {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') {
        throw new Error(`the file system refused WAL mode (journal_mode is ${String(mode)})`);
      }
      db.pragma('synchronous = NORMAL');
    }
    db.pragma(`cache_size = -${Math.max(256, Math.trunc(options.cacheKiB))}`);
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    db.pragma('foreign_keys = OFF');
    if (options.mmapBytes !== undefined && options.mmapBytes > 0)
      db.pragma(`mmap_size = ${Math.trunc(options.mmapBytes)}`);
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // The connection is unusable anyway; the open error is the one to report.
    }
    throw storeError(file, error, 'opening the store');
  }
}
