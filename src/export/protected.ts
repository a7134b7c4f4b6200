import { open } from 'node:fs/promises';

/**
 * Files an export never deletes, `--force` or not, wherever they are in the folder: a database
 * (by its name, or a file that starts as SQLite does), its journal, a key ring (by its name, or a
 * file that reads as one, so a renamed `ring.json` is still recognised) and source copies
 * (`*.sources`). Losing a key ring breaks every install link; losing a database, the data.
 */

/** Names that are a database, its journal, a key ring or the copies folder of a store. */
const PROTECTED_NAME = /(\.db|\.sqlite3?|-wal|-shm|-journal|\.keys\.json|\.sources)$/i;
/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** A WAL file's magic number (big-endian, the last bit says the checksum byte order). */
const WAL_MAGIC = [0x37, 0x7f, 0x06] as const;
/** How a key ring written by Marquee starts (serializeKeyRing: `{ "current": …, "keys": {…} }`, either order). */
const KEY_RING_HEAD = /^\uFEFF?\s*\{\s*"(?:current|keys)"\s*:/;
/** Bytes read from the head of each file; a key ring is read whole up to this size. */
const HEAD_BYTES = 256;
const KEY_RING_MAX_BYTES = 1024 * 1024;

/**
 * Why the file at `path` (relative `name`) must never be deleted, or undefined. `isSymlink`: a
 * link is judged by its name only (deleting it never touches what it points to).
 *
 * @example await protectedReason('/srv/addon/meta/important.db', 'meta/important.db') // 'a database'
 */
export async function protectedReason(path: string, name: string, isSymlink = false): Promise<string | undefined> {
  const byName = protectedName(name);
  if (byName !== undefined || isSymlink) return byName;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    if (bytesRead >= 16 && head.subarray(0, 16).equals(SQLITE_MAGIC)) return 'a database';
    if (bytesRead >= 32 && WAL_MAGIC.every((b, i) => head[i] === b) && (head[3]! & 0xfe) === 0x82) {
      return 'a database journal';
    }
    if (KEY_RING_HEAD.test(head.subarray(0, bytesRead).toString('utf8'))) {
      const { size } = await handle.stat();
      // Too big to be a key ring, or cut short: what starts as one is kept, to be safe.
      if (size > KEY_RING_MAX_BYTES) return 'a key ring';
      const text = Buffer.alloc(size);
      await handle.read(text, 0, size, 0);
      return readsAsKeyRing(text.toString('utf8')) !== false ? 'a key ring' : undefined;
    }
    return undefined;
  } catch {
    // Unreadable: nothing to judge by but its name, and the name passed.
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** A protected name anywhere in `name` (a relative path): a file in a `*.sources` folder too. */
export function protectedName(name: string): string | undefined {
  const parts = name.split('/');
  if (parts.slice(0, -1).some((part) => /\.sources$/i.test(part))) return 'a source copy';
  const last = parts.at(-1) ?? '';
  if (!PROTECTED_NAME.test(last)) return undefined;
  if (/\.keys\.json$/i.test(last)) return 'a key ring';
  if (/\.sources$/i.test(last)) return 'a source copy';
  if (/(-wal|-shm|-journal)$/i.test(last)) return 'a database journal';
  return 'a database';
}

/** True for a key ring, false for other JSON, undefined when it does not parse (cut short?). */
function readsAsKeyRing(text: string): boolean | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return false;
  const { current, keys } = data as { current?: unknown; keys?: unknown };
  return typeof current === 'string' && typeof keys === 'object' && keys !== null;
}
