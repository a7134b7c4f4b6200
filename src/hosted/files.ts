/**
 * The hosted folder's files: one SQLite store per source set (`<key>.db`, its `-wal` and `-shm`,
 * and `<key>.db.sources/`, the copies of its sources), the registry, and the public add-on's
 * empty store. They hold what users' sources served (stream URLs carry providers' tokens, an
 * Xtream password is in every stream URL of its account): the folder is 0700 and every file in
 * it 0600, whatever was there before.
 */
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A set's files are named by its key: 32 hex digits. */
const SET_FILE = /^([0-9a-f]{32})\.db(?:-wal|-shm|\.sources)?$/;
const TEMP_FILE = /\.tmp$/;

/** `<dir>/<key>.db` */
export const setFile = (dir: string, key: string) => join(dir, `${key}.db`);

/**
 * Creates `dir` when missing and makes it and everything in it private. Returns the mode the
 * folder had when it was wider than 0700 (for a log line), else undefined.
 * @example const wider = privateDir('/var/lib/marquee/marquee.db.hosted') // 0o755 when it was
 */
export function privateDir(dir: string): number | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if (mode !== 0o700) chmodSync(dir, 0o700);
  privateTree(dir);
  return mode & 0o077 ? mode : undefined;
}

/** Every file under `path` 0600, every folder 0700. */
function privateTree(path: string): void {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    try {
      if (entry.isDirectory()) {
        chmodSync(child, 0o700);
        privateTree(child);
      } else if (entry.isFile()) chmodSync(child, 0o600);
    } catch {
      // Removed meanwhile (an import's work folder): nothing to protect.
    }
  }
}

/**
 * Creates the store file of a set (empty) with mode 0600 before SQLite opens it: SQLite creates
 * the `-wal` and `-shm` files with the database file's mode.
 */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** The files of set `key` made private again after an import wrote them (its copies folder among them). */
export function privateSet(dir: string, key: string): void {
  const base = setFile(dir, key);
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(base + suffix, 0o600);
    } catch {
      // Not there (no WAL after a checkpoint): nothing to protect.
    }
  }
  try {
    chmodSync(`${base}.sources`, 0o700);
    privateTree(`${base}.sources`);
  } catch {
    // No copies.
  }
}

/** Deletes every file of set `key`. */
export function removeSet(dir: string, key: string): void {
  const base = setFile(dir, key);
  for (const suffix of ['', '-wal', '-shm']) rmSync(base + suffix, { recursive: true, force: true });
  rmSync(`${base}.sources`, { recursive: true, force: true });
}

/** Bytes on disk of set `key`: its store file, WAL and copies. */
export function setBytes(dir: string, key: string): number {
  const base = setFile(dir, key);
  return sizeOf(base) + sizeOf(`${base}-wal`) + sizeOf(`${base}.sources`);
}

/** The size of a file, or of everything in a folder. */
export function sizeOf(path: string): number {
  try {
    const s = statSync(path);
    if (!s.isDirectory()) return s.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

/**
 * Deletes the files of sets the registry does not hold (a first import that failed or was
 * refused when the process stopped, sets dropped from an oversized registry) and left-over
 * temporary files; returns the keys removed.
 */
export function removeStrays(dir: string, recorded: (key: string) => boolean): string[] {
  const removed = new Set<string>();
  for (const name of readdirSync(dir)) {
    const key = SET_FILE.exec(name)?.[1];
    if (key !== undefined && !recorded(key)) {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.add(key);
    } else if (TEMP_FILE.test(name)) rmSync(join(dir, name), { force: true });
  }
  return [...removed];
}
