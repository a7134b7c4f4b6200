import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MarqueeError } from '../errors.js';

/**
 * The export folder is replaced whole: files are built in a staging folder next to it (same file
 * system, so a rename moves them), then swapped in. A previous export is recognised by the marker
 * file; any other non-empty folder is refused unless forced, so a typo in `--out` never deletes
 * someone's files.
 */

/** Written at the root of every export; its presence makes the folder ours to replace. */
export const MARKER_FILE = '.marquee-export.json';
/** The `generator` value of our marker, checked so a stray file of the same name is not trusted. */
export const MARKER_GENERATOR = 'marquee export';

export type OutDirState = 'absent' | 'empty' | 'previous-export' | 'forced';

/**
 * Decide whether `outDir` may be replaced; throws INVALID_SETTINGS naming the folder when not.
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
    entries = await readdir(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  if (entries.length === 0) return 'empty';
  if (entries.includes(MARKER_FILE) && (await isOurMarker(join(outDir, MARKER_FILE)))) return 'previous-export';
  if (force) return 'forced';
  throw new MarqueeError(
    'INVALID_SETTINGS',
    `export folder ${outDir} is not empty and holds no ${MARKER_FILE} from a previous export; ` +
      'choose an empty or new folder, or pass --force to replace it and everything in it',
  );
}

async function isOurMarker(file: string): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(file, 'utf8')) as { generator?: unknown };
    return marker.generator === MARKER_GENERATOR;
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
  return mkdtemp(join(dirname(outDir), `.${basename(outDir)}.export-`));
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
