/**
 * What a running `serve` keeps in step with the operator: the database file at its configured
 * path (restored from a backup, `mv new.db marquee.db`) and the key ring (`marquee rotate-key`).
 * The open store would otherwise go on serving a deleted file until a restart, and dropped keys
 * would go on decrypting install links.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { APPLICATION_ID, openStore, type Store } from '../store/index.js';
import { watchKeyRing } from './watch-keys.js';

export interface FileWatchOptions {
  readonly db: string;
  readonly keyFile: string;
  /** The store open now (the watcher swaps it). */
  readonly store: Store;
  /** How often the database path is looked at. Default 10 s (the bound is a minute). */
  readonly dbIntervalMs?: number;
  /** How often the key ring is looked at. Default 1 s. */
  readonly keyIntervalMs?: number;
  /** A new store was opened at the path: rebuild the add-on on it (the old one closes later). */
  readonly onStore: (store: Store) => void;
  /** The key ring's content changed (`bytes`, as read): rebuild the add-on. */
  readonly onKeys: (bytes: Buffer) => void;
  readonly warn: (message: string) => void;
  readonly error: (message: string) => void;
  /** Registers a reload request (SIGHUP); returns how to unregister it. */
  readonly onReload?: (listener: () => void) => () => void;
}

export interface FileWatch {
  /** The store served now. */
  readonly store: Store;
  /** Looks at the database path now (after a refresh wrote it, say). */
  checkStore(): void;
  /** Stops watching and closes every store but the current one. */
  stop(): void;
}

const GRACE_MS = 10_000;

/** Why the file at `path` is not a Marquee store, or undefined when it is one. */
function notAStore(path: string): string | undefined {
  let fd: number | undefined;
  try {
    // Without waiting for a writer: a FIFO put at the path would hold the server's thread for good.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return 'it is not a regular file';
    const head = Buffer.alloc(100);
    const n = readSync(fd, head, 0, 100, 0);
    if (n < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\0') return 'it is not an SQLite database';
    if (head.readUInt32BE(68) !== APPLICATION_ID) return 'it is an SQLite database of another program';
    return undefined;
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const sameFile = (a: Stats, b: Stats) => a.ino === b.ino && a.dev === b.dev;

/**
 * Watches the database path and the key ring of a running server.
 * @example const watch = watchFiles({ db, keyFile, store, onStore: (s) => rebuild(s), onKeys: rebuild, warn, error })
 */
export function watchFiles(options: FileWatchOptions): FileWatch {
  let store = options.store;
  let opened = statSync(options.db);
  /** The last path state reported, so a problem is logged once, not every 10 s. */
  let reported = '';
  const retired: Store[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const report = (key: string, message: string, level: 'warn' | 'error') => {
    if (reported === key) return;
    reported = key;
    (level === 'warn' ? options.warn : options.error)(message);
  };

  const checkStore = () => {
    let now: Stats;
    try {
      now = statSync(options.db);
    } catch {
      report(
        'gone',
        `the database file ${options.db} is gone; the open one is still served until a file appears at that path (the next refresh writes one)`,
        'warn',
      );
      return;
    }
    if (sameFile(now, opened)) {
      reported = '';
      return;
    }
    const key = `${now.dev}:${now.ino}:${now.mtimeMs}`;
    const why = notAStore(options.db);
    if (why !== undefined) {
      report(
        key,
        `the file now at ${options.db} is not a Marquee store (${why}); the open one is still served`,
        'error',
      );
      return;
    }
    let next: Store;
    try {
      next = openStore(options.db);
    } catch (error) {
      report(
        key,
        `the file now at ${options.db} cannot be opened: ${(error as Error).message}; the open one is still served`,
        'error',
      );
      return;
    }
    reported = '';
    opened = now;
    const old = store;
    store = next;
    options.onStore(next);
    // Requests in flight may still read the old store: it closes after a grace period.
    retired.push(old);
    const timer = setTimeout(() => {
      timers.delete(timer);
      retired.splice(retired.indexOf(old), 1);
      old.close();
    }, GRACE_MS);
    timer.unref();
    timers.add(timer);
    options.warn(`the database file ${options.db} was replaced; serving the new one`);
  };

  const dbTimer = setInterval(checkStore, options.dbIntervalMs ?? 10_000);
  dbTimer.unref();

  const keys = watchKeyRing(options.keyFile, {
    ...(options.keyIntervalMs !== undefined ? { intervalMs: options.keyIntervalMs } : {}),
    onChange: (bytes) => options.onKeys(bytes),
  });
  // SIGHUP: both now, each acting (and logging) only on what changed.
  const unregister = options.onReload?.(() => {
    checkStore();
    keys.check();
  });

  return {
    get store() {
      return store;
    },
    checkStore,
    stop() {
      clearInterval(dbTimer);
      keys.stop();
      unregister?.();
      for (const timer of timers) clearTimeout(timer);
      for (const old of retired.splice(0)) old.close();
    },
  };
}
