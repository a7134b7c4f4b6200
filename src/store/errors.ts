/**
 * Turns SQLite failures into MarqueeErrors that name the database file and say what to do:
 * the operator sees "guide.db is locked by another process", not "SQLITE_BUSY".
 */
import { MarqueeError } from '../errors.js';

/** SQLite's extended result code (`SQLITE_BUSY_SNAPSHOT`) when `error` comes from better-sqlite3. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True for the errors that mean "another connection holds the lock" (after busy_timeout). */
export function isLockError(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * A STORE_UNAVAILABLE error for `file`, with advice chosen from the SQLite code.
 *
 * @example throw storeError('/data/marquee.db', err, 'opening the store')
 */
export function storeError(file: string, error: unknown, doing: string): MarqueeError {
  if (error instanceof MarqueeError) return error;
  const code = sqliteCode(error) ?? '';
  const reason = error instanceof Error ? error.message : String(error);
  const errno = (error as { code?: unknown } | null)?.code;
  const shown = code !== '' ? code : typeof errno === 'string' ? errno : '';
  const what = `${file}: ${reason}${shown !== '' ? ` [${shown}]` : ''} (while ${doing})`;
  let advice: string;
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    advice =
      'the file is not a Marquee database or is corrupt. Move it aside (keep it for inspection) ' +
      'and run the import again to rebuild the store.';
  } else if (isLockError(error)) {
    advice =
      'the database is locked by another process and stayed locked for the whole busy timeout. ' +
      'Stop the other writer or try again later.';
  } else if (code.startsWith('SQLITE_CANTOPEN') || /directory does not exist/.test(reason)) {
    advice = 'the file cannot be opened: its folder must exist and be readable and writable by this process.';
  } else if (code === 'SQLITE_FULL') {
    advice = 'the disk is full. Free space and try again.';
  } else if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    advice = 'the file or its folder is read-only; the store needs write access to both (WAL and shm files).';
  } else if (code.startsWith('SQLITE_IOERR')) {
    advice = 'the disk reported an I/O error. Check the disk and the file system.';
  } else if (error instanceof TypeError && /not open/.test(reason)) {
    advice = 'the store was closed. Open it again with openStore().';
  } else {
    advice = 'the database cannot be used.';
  }
  return new MarqueeError('STORE_UNAVAILABLE', `${what}: ${advice}`, {
    cause: error,
    details: { file, ...(code ? { sqlite: code } : {}) },
  });
}
