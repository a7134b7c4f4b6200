import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MarqueeError } from '../errors.js';

/**
 * The export folder is replaced whole: files are built in a staging folder next to it (same file
 * system, so a rename moves them), then swapped in. Only a folder that is empty or holds a
 * previous export (recognised by the marker file, which lists what the export put at the root) is
 * replaced: any other non-empty folder is refused naming its first file, `--force` or not, so a
 * typo in `--out` never deletes someone's files. `--force` replaces a previous export that has
 * gained files of someone else's, except a database or key ring, which is always refused.
 */

/** Written at the root of every export; its presence makes the folder ours to replace. */
export const MARKER_FILE = '.marquee-export.json';
/** The `generator` value of our marker, checked so a stray file of the same name is not trusted. */
export const MARKER_GENERATOR = 'marquee export';

export type OutDirState = 'absent' | 'empty' | 'previous-export' | 'forced';

/** Root entries that are never an export's: a database, its journal, key ring or source copies. */
const PROTECTED = /(\.db|\.sqlite3?|-wal|-shm|-journal|\.keys\.json|\.sources)$/i;
const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Decide whether `outDir` may be replaced; throws INVALID_SETTINGS naming the folder and its
 * first foreign file when not.
 *
 * @example await checkOutDir('/srv/addon', false) // 'previous-export'
 */
export async function checkOutDir(outDir: string, force: boolean): Promise<OutDirState> {
  let entries: string[];
  try {
    const info = await stat(outDir);
    if (!info.isDirectory()) {
      throw new MarqueeError('INVALID_SETTINGS', `export folder ${outDir} exists and is not a folder; not replaced`);
    }
    entries = (await readdir(outDir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  if (entries.length === 0) return 'empty';
  const marker = entries.includes(MARKER_FILE) ? await readMarker(join(outDir, MARKER_FILE)) : undefined;
  if (marker === undefined) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export folder ${outDir} holds ${entries[0]} and no ${MARKER_FILE} from a previous export; not replaced ` +
        '(even with --force): choose an empty or new folder',
    );
  }
  // Older markers list nothing: then only what is never an export's counts as foreign.
  const own = new Set([MARKER_FILE, ...(marker.entries ?? entries)]);
  const foreign: string[] = [];
  for (const name of entries) if (!own.has(name) || (await isProtected(join(outDir, name), name))) foreign.push(name);
  if (foreign.length === 0) return 'previous-export';
  const kept: string[] = [];
  for (const name of foreign) if (await isProtected(join(outDir, name), name)) kept.push(name);
  if (kept.length > 0) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export folder ${outDir} holds ${kept[0]}, a database or key ring that no export writes; not replaced ` +
        '(even with --force): move it, or export to another folder',
    );
  }
  if (force) return 'forced';
  throw new MarqueeError(
    'INVALID_SETTINGS',
    `export folder ${outDir} holds a previous export and ${foreign[0]}, which it did not write; not replaced: ` +
      'move that file, or pass --force to replace the folder with everything in it',
  );
}

async function readMarker(file: string): Promise<{ entries?: string[] } | undefined> {
  try {
    const marker = JSON.parse(await readFile(file, 'utf8')) as { generator?: unknown; entries?: unknown };
    if (marker.generator !== MARKER_GENERATOR) return undefined;
    return Array.isArray(marker.entries) ? { entries: marker.entries.map(String) } : {};
  } catch {
    return undefined;
  }
}

/** A database, journal, key ring or copies folder by its name, or a file that starts as SQLite does. */
async function isProtected(path: string, name: string): Promise<boolean> {
  if (PROTECTED.test(name)) return true;
  try {
    const handle = await open(path, 'r');
    try {
      const head = Buffer.alloc(16);
      const { bytesRead } = await handle.read(head, 0, 16, 0);
      return bytesRead === 16 && head.toString('latin1') === SQLITE_MAGIC;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * Create the staging folder beside `outDir` (creating `outDir`'s parent when missing).
 *
 * @example const staging = await createStagingDir('/srv/addon'); // '/srv/.addon.export-Ab12Cd'
 */
export async function createStagingDir(outDir: string): Promise<string> {
  await mkdir(dirname(outDir), { recursive: true });
  // mkdir, not mkdtemp: mkdtemp makes the folder 0700, and a static web server running as
  // another user could then read nothing. mkdir takes 0777 less the umask, as the files do.
  for (;;) {
    const staging = join(dirname(outDir), `.${basename(outDir)}.export-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(staging);
      return staging;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Move `staging` to `outDir`. An existing folder is first renamed aside, then removed: between
 * the two renames (microseconds) `outDir` is missing, never half-written. On failure the old
 * folder is put back.
 *
 * @example await swapIn(staging, '/srv/addon', 'previous-export');
 */
export async function swapIn(staging: string, outDir: string, state: OutDirState): Promise<void> {
  if (state === 'absent') {
    await rename(staging, outDir);
    return;
  }
  const aside = join(dirname(outDir), `.${basename(outDir)}.old-${randomBytes(6).toString('hex')}`);
  await rename(outDir, aside);
  try {
    await rename(staging, outDir);
  } catch (error) {
    await rename(aside, outDir);
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
}
