import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
/**
 * `openStore`: one read connection (WAL snapshot reads, statements prepared once) plus a new
 * connection per import. Integrity: opening reads the header (a garbage file fails at once with
 * STORE_UNAVAILABLE); the full `PRAGMA quick_check` is O(file size), so it runs only when asked
 * (`openStore(file, { check: true })` or `store.check()`), e.g. by a `marquee doctor` command.
 */
import { MarqueeError } from '../errors.js';
import { type Connection, openConnection, type Statement } from './connection.js';
import { storeError } from './errors.js';
import { importQueries } from './imports.js';
import { type LibraryStoreApi, libraryStoreApi } from './library/api.js';
import { beginLiveTvImport } from './livetv/begin.js';
import {
  HEALTH_IMPORT_KIND,
  type HealthChange,
  type HealthReads,
  type HealthResult,
  healthReads,
} from './livetv/health.js';
import { type HealthPassInput, recordHealthPass, recordStreamVerdicts } from './livetv/health-record.js';
import type { LiveTvImport } from './livetv/import.js';
import { type MatchReads, matchReads } from './livetv/matches.js';
import { type LiveTvReads, liveTvReads } from './livetv/read.js';
import type { ImportRecord, LiveTvCounts, LiveTvImportOptions, LiveTvImportReport } from './livetv/types.js';
import { withLockRetry } from './lock.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { copiesDir, type SourceAttempt, type SourceReads, sourceReads, writeSourceStates } from './sources.js';

export interface StoreOptions {
  /** How long a statement waits for another process's lock before STORE_UNAVAILABLE. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** Page cache of the read connection in KiB. Default 16 MiB. */
  readonly cacheKiB?: number;
  /** Run `PRAGMA quick_check` at open (reads the whole file). Default false. */
  readonly check?: boolean;
  /**
   * How much of the file the read connection maps into memory, in MiB; 0 turns mapping off.
   * Default 1024. A guide page reads about 1 MB of programmes it has usually never read before:
   * through the map that costs page faults on the OS's file cache instead of a read() and a copy
   * into SQLite's page cache per 4 KiB page (a 10,000-channel guide page query: p50 3.1 -> 2.2 ms).
   * Mapped pages are the OS's file cache, shared and reclaimable, but tools count the ones
   * touched in the process's RSS. Writers never map (an import's memory bound stays as it is).
   */
  readonly mmapMiB?: number;
  /**
   * A new store (no file, or an empty one) is filled by its first import in SQLite's
   * rollback-journal mode, and switched to WAL when that import ends. In WAL mode every page of
   * the import is written twice, to the WAL and then by the checkpoint into the file (about 250 MB
   * and half a second on the 370 MB benchmark guide); in rollback mode the new pages go straight
   * to the file and only the few pages that existed before are journaled. Meanwhile no other
   * connection can read the store: for `marquee import`, whose process reads nothing else, not
   * for a server. Default false.
   */
  readonly fastFirstImport?: boolean;
}

/** Default of StoreOptions.mmapMiB. */
const DEFAULT_MMAP_MIB = 1024;

/** Internal handle for other store modules (e.g. library/); backends use the typed methods. */
export interface StoreContext {
  readonly file: string;
  /** The read connection. */
  readonly db: Connection;
  /** A new connection with the store's pragmas, for a writer. */
  openWriter(busyTimeoutMs: number, cacheKiB: number): Connection;
}

/** The library methods (reads, `beginLibraryImport`, the add-on manifest cache) are documented in library/api.ts. */
export interface Store extends LiveTvReads, MatchReads, LibraryStoreApi, SourceReads, HealthReads {
  readonly file: string;
  readonly context: StoreContext;
  /** Starts an atomic live-TV import on its own connection. @example const imp = await store.beginLiveTvImport() */
  beginLiveTvImport(options?: LiveTvImportOptions): Promise<LiveTvImport>;
  /** Counts of the served live-TV data (from its import report; zeros before the first import). */
  counts(): LiveTvCounts;
  /** The newest live-TV import of any status, e.g. to show why a refresh failed. */
  lastImport(): ImportRecord | undefined;
  /** The newest `n` live-TV imports (max 100), newest first. */
  importHistory(n?: number): ImportRecord[];
  /**
   * Changes whenever an import of any kind commits: a cache key for served responses. Imports
   * through this store show at once. With `now` (the caller's `Date.now()`, the server's per
   * request, so the clock is not read twice) a reading at most `DATA_VERSION_TTL_MS` old may be
   * answered: a commit by another process or thread shows within 50 ms. Without it SQLite is
   * asked: for a caller about to build, or having built, an answer from the data.
   */
  dataVersion(now?: number): number;
  /**
   * Records how each source of `area` went in an attempt that changed no data (every source
   * answered "not modified", or none could be used), in a short transaction of its own.
   * @example await store.recordSourceAttempts('livetv', [{ key, kind: 'guide', label, outcome: 'unchanged' }])
   */
  recordSourceAttempts(
    area: string,
    attempts: readonly SourceAttempt[],
    options?: { readonly lockTimeoutMs?: number },
  ): Promise<void>;
  /**
   * Records a stream health pass (store/livetv/health.ts) in one short transaction, as an import of
   * kind `health` (the data version follows it); returns the streams whose state changed.
   * @example await store.recordHealthPass({ startedAt, results: [{ url, state: 'ok', detail: 'MPEG-TS', at: Date.now() }], report: {} })
   */
  recordHealthPass(pass: HealthPassInput): Promise<HealthChange[]>;
  /**
   * Records verdicts seen outside a pass (a relayed stream failing while it plays) in stream
   * health, in a short transaction of its own, with no pass recorded; URLs no stream has are skipped.
   * @example await store.recordStreamVerdicts([{ url, state: 'timeout', detail: 'relay: no bytes for 6 s', at: Date.now() }])
   */
  recordStreamVerdicts(results: readonly HealthResult[]): Promise<HealthChange[]>;
  /** The newest health pass recorded, if any. */
  lastHealthPass(): ImportRecord | undefined;
  /** `PRAGMA quick_check`: `ok` plus up to 20 problems. Reads the whole file. */
  check(): { ok: boolean; problems: string[] };
  /** Closes the read connection and aborts imports still open. */
  close(): void;
}

/** How long a read of `dataVersion` stands before PRAGMA data_version is asked again. */
export const DATA_VERSION_TTL_MS = 50;

const ZERO_COUNTS: LiveTvCounts = {
  channels: 0,
  streams: 0,
  guideChannels: 0,
  programmes: 0,
  matchedChannels: 0,
  unmatchedChannels: 0,
  groups: 0,
};

/** Wraps each function of `api` so SQLite failures become STORE_UNAVAILABLE naming `file`. */
function guard<T extends object>(file: string, api: T): T {
  const out = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(api)) {
    out[name] = (...args: unknown[]) => {
      try {
        return (fn as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        if (error instanceof MarqueeError) throw error;
        throw storeError(file, error, `${name}()`);
      }
    };
  }
  return out as T;
}

/**
 * Opens (creating and migrating when needed) the store in `file`.
 *
 * @example const store = openStore('/data/marquee.db'); store.listChannels({ offset: 0, limit: 100 })
 */
export function openStore(file: string, options: StoreOptions = {}): Store {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  const mmapMiB = Math.max(0, options.mmapMiB ?? DEFAULT_MMAP_MIB);
  // What was there before: a new store that cannot be created for want of space leaves nothing
  // behind (SQLite left an empty file and a 3-byte -shm). Only then, and only while the file is
  // still empty: another process may be creating the same store.
  const before = new Set(['', '-wal', '-shm'].filter((suffix) => existsSync(file + suffix)));
  const leaveNothing = (error: unknown) => {
    const code = String((error as { details?: { sqlite?: unknown } })?.details?.sqlite ?? '');
    const full = code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || /ENOSPC|disk is full/.test(String(error));
    if (!full || before.has('') || fileSize(file) !== 0) return;
    for (const suffix of ['', '-wal', '-shm']) if (!before.has(suffix)) rmSync(file + suffix, { force: true });
  };
  // A new store is made 0600 whatever the umask (SQLite would make it 0644, or 0666 under umask
  // 000), and SQLite gives its -wal and -shm the file's mode: it holds the stream URLs, accounts
  // and all. Any failure here is left to SQLite to report.
  if (!before.has('')) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch {
      // Made meanwhile by another process, or a folder that is missing: SQLite says which.
    }
  }
  let db: Connection;
  try {
    db = openConnection(file, {
      busyTimeoutMs,
      cacheKiB: options.cacheKiB ?? 16 * 1024,
      mmapBytes: mmapMiB * 1024 * 1024,
      walLater: options.fastFirstImport === true && (!before.has('') || fileSize(file) === 0),
    });
  } catch (error) {
    leaveNothing(error);
    throw error;
  }
  let reads: LiveTvReads;
  let matches: MatchReads;
  let health: HealthReads;
  let sources: SourceReads;
  let imports: ReturnType<typeof importQueries>;
  let dataVersionStmt: Statement;
  try {
    migrate(db, file, MIGRATIONS);
    reads = liveTvReads(db);
    matches = matchReads(db);
    health = healthReads(db);
    sources = sourceReads(db, copiesDir(file));
    imports = importQueries(db);
    dataVersionStmt = db.prepare<unknown[]>('PRAGMA data_version').pluck();
  } catch (error) {
    db.close();
    const failure = storeError(file, error, 'opening the store');
    leaveNothing(failure);
    throw failure;
  }

  // PRAGMA data_version changes when another connection commits; re-read the imports table only then.
  let seenDataVersion = -1;
  let version = 0;
  // The pragma costs a read transaction: 2-4 µs in a tight loop, about 34 µs when asked between
  // other work (its caches cold), which at once per 5 ms still cost a server answering cached
  // pages 2-3% of them (bench/README.md, "The cached-page hot path"). So it runs at most once per
  // DATA_VERSION_TTL_MS: a commit by another process or thread is seen within that. Writes through
  // this store are seen at once: while one of its writer connections is open every call checks,
  // and the first call after it closes does.
  let writersOpen = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;

  const context: StoreContext = {
    file,
    db,
    openWriter(timeout, cacheKiB) {
      // walLater: a file the store left in rollback mode for its first import stays so until that ends.
      const writer = openConnection(file, { busyTimeoutMs: timeout, cacheKiB, walLater: true });
      writersOpen++;
      const close = writer.close.bind(writer);
      writer.close = () => {
        if (writer.open) {
          writersOpen--;
          checkedAt = Number.NEGATIVE_INFINITY;
        }
        return close();
      };
      return writer;
    },
  };
  const active = new Set<{ abort(reason: string): void }>();

  const api = guard(file, {
    ...reads,
    ...matches,
    ...health,
    ...sources,
    ...libraryStoreApi({ file, db, openWriter: context.openWriter, imports, active }),
    counts(): LiveTvCounts {
      const report = imports.lastOk('livetv')?.report as LiveTvImportReport | undefined;
      return report?.counts ?? ZERO_COUNTS;
    },
    lastImport: () => imports.history('livetv', 1)[0],
    lastHealthPass: () => imports.history(HEALTH_IMPORT_KIND, 1)[0],
    importHistory: (n = 10) => imports.history('livetv', Math.min(100, Math.max(1, Math.trunc(n) || 1))),
    /** The store's `dataVersion` past its fresh case (below): asks SQLite. */
    dataVersion(): number {
      checkedAt = Date.now();
      const current = dataVersionStmt.get() as number;
      if (current !== seenDataVersion) {
        version = imports.newestOkId();
        seenDataVersion = current;
      }
      return version;
    },
    check() {
      const rows = db.prepare('PRAGMA quick_check(20)').pluck().all() as string[];
      const ok = rows.length === 1 && rows[0] === 'ok';
      return { ok, problems: ok ? [] : rows };
    },
  });

  if (options.check) {
    const result = api.check();
    if (!result.ok) {
      db.close();
      throw new MarqueeError(
        'STORE_UNAVAILABLE',
        `${file}: the integrity check failed (${result.problems.slice(0, 3).join('; ')}). ` +
          'Move the file aside and run the import again to rebuild the store.',
        { details: { file, problems: result.problems } },
      );
    }
  }

  return {
    ...api,
    // Asked by every cached answer: the fresh case answers before the guard's wrapper (whose rest
    // arguments and shared call site were a few percent of a cached page's time). Date.now, not
    // performance.now (which checks its receiver on every call, in Node 20); a clock set back
    // counts as stale, so the version is asked again rather than held.
    dataVersion(now?: number): number {
      if (now === undefined) return api.dataVersion();
      const elapsed = now - checkedAt;
      return writersOpen === 0 && elapsed >= 0 && elapsed < DATA_VERSION_TTL_MS ? version : api.dataVersion();
    },
    file,
    context,
    async beginLiveTvImport(importOptions?: LiveTvImportOptions): Promise<LiveTvImport> {
      if (!db.open) throw storeError(file, new TypeError('The database connection is not open'), 'starting an import');
      const imp = await beginLiveTvImport(
        { file, openWriter: context.openWriter, ended: (done) => active.delete(done) },
        importOptions,
      );
      active.add(imp);
      return imp;
    },
    recordHealthPass: (pass: HealthPassInput) => recordHealthPass({ file, openWriter: context.openWriter }, pass),
    recordStreamVerdicts: (results: readonly HealthResult[]) =>
      recordStreamVerdicts({ file, openWriter: context.openWriter }, results),
    async recordSourceAttempts(area, attempts, recordOptions = {}): Promise<void> {
      const writer = context.openWriter(20, 1024);
      try {
        const write = writer.transaction(() =>
          writeSourceStates(
            writer,
            area,
            attempts.map(({ copy: _copy, ...attempt }) => attempt),
            Date.now(),
            { prune: false, dir: copiesDir(file) },
          ),
        );
        await withLockRetry(() => write.immediate(), recordOptions.lockTimeoutMs ?? 60_000);
      } catch (error) {
        throw storeError(file, error, 'recording source attempts');
      } finally {
        writer.close();
      }
    },
    close(): void {
      for (const imp of [...active]) imp.abort('the store was closed before the import was committed');
      if (db.open) db.close();
    },
  };
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
