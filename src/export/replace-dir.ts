import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MarqueeError } from '../errors.js';
import { protectedName, protectedReason } from './protected.js';

/**
 * The export folder is replaced whole: files are built in a staging folder next to it (same file
 * system, so a rename moves them), then swapped in. The marker file of an export lists every file
 * it wrote; the next export removes only those. Anything else in the folder, at any depth, makes
 * it refuse, naming the paths; `--force` then replaces the folder with them, but never deletes a
 * database, a key ring or source copies (protected.ts): those are named and the export stops. A
 * folder without our marker is never replaced, `--force` or not, so a typo in `--out` deletes
 * nothing of someone's.
 */

/** Written at the root of every export; its presence makes the folder ours to replace. */
export const MARKER_FILE = '.marquee-export.json';
/** The `generator` value of our marker, checked so a stray file of the same name is not trusted. */
export const MARKER_GENERATOR = 'marquee export';
/** Version 3 lists every file written (`written`); 2 listed the root entries, 1 nothing. */
export const MARKER_VERSION = 3;

/**
 * The modes an export's folders and files are created with, less the umask: what a static web
 * server needs (readable by all, writable by the owner only), and no more under `umask 000`
 * (world-writable files served to the public); a stricter umask (077) is kept.
 */
export const FOLDER_MODE = 0o755;
/** See FOLDER_MODE. */
export const FILE_MODE = 0o644;

/** Paths named in a refusal; the rest are counted. */
const NAMED = 10;

/** What is in `outDir` now and what replacing it may delete (paths relative, with `/`). */
export interface OutDir {
  readonly state: 'absent' | 'empty' | 'previous-export' | 'forced';
  /** The files that may be deleted when the new export is swapped in. */
  readonly removable: ReadonlySet<string>;
}

/**
 * Decide whether `outDir` may be replaced and what that may delete; throws INVALID_SETTINGS
 * naming the folder and the paths that stop it.
 *
 * @example (await checkOutDir('/srv/addon', false)).state // 'previous-export'
 */
export async function checkOutDir(outDir: string, force: boolean): Promise<OutDir> {
  let root: Dirent[];
  try {
    root = await readdir(outDir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'absent', removable: new Set() };
    if (code === 'ENOTDIR') {
      throw new MarqueeError('INVALID_SETTINGS', `export folder ${outDir} exists and is not a folder; not replaced`);
    }
    throw error;
  }
  if (root.length === 0) return { state: 'empty', removable: new Set() };
  const marker = root.some((e) => e.name === MARKER_FILE && e.isFile())
    ? await readMarker(join(outDir, MARKER_FILE))
    : undefined;
  if (marker === undefined) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export folder ${outDir} holds ${root.map((e) => e.name).sort()[0]} and no ${MARKER_FILE} from a previous export; ` +
        'not replaced (even with --force): choose an empty or new folder',
    );
  }
  const ours = marker.written ? new Set([...marker.written, MARKER_FILE]) : undefined;
  const isOurs = (path: string) => (ours ? ours.has(path) : shapedAsExport(path));
  const tree = await walk(outDir);
  const kept: string[] = [];
  const foreign: string[] = [];
  // Every file's head is read, a few at a time: one by one, 100,000 files took 10 s.
  const reasons = await mapLimited(tree.files, HEAD_READS, (file) =>
    protectedReason(join(outDir, file.path), file.path, file.symlink),
  );
  tree.files.forEach((file, i) => {
    const reason = reasons[i];
    if (reason !== undefined) kept.push(`${file.path} (${reason})`);
    else if (file.symlink || !isOurs(file.path)) foreign.push(file.path);
  });
  // A folder the export did not make and that holds nothing of it (an empty one someone added).
  const folders = new Set(tree.files.filter((f) => isOurs(f.path)).flatMap((f) => ancestors(f.path)));
  for (const folder of tree.folders)
    if (!folders.has(folder) && protectedName(folder) === undefined) foreign.push(`${folder}/`);
  for (const folder of tree.folders) {
    const reason = protectedName(folder);
    if (reason !== undefined) kept.push(`${folder}/ (${reason})`);
  }
  if (kept.length > 0) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `export folder ${outDir} holds what no export writes and none ever deletes: ${list(kept)}; ` +
        'not replaced (even with --force): move them out of the folder, or export to another folder',
      { details: { outDir, protected: kept } },
    );
  }
  const all = new Set(tree.files.map((f) => f.path));
  if (foreign.length === 0) return { state: 'previous-export', removable: all };
  if (force) return { state: 'forced', removable: all };
  throw new MarqueeError(
    'INVALID_SETTINGS',
    `export folder ${outDir} holds ${foreign.length === 1 ? 'a file' : `${foreign.length} files`} the previous export ` +
      `did not write: ${list(foreign)}; not replaced: move ${foreign.length === 1 ? 'it' : 'them'}, or pass --force to ` +
      'replace the folder with everything in it (a database or key ring is still never deleted)',
    { details: { outDir, foreign } },
  );
}

/** Files whose heads are read at once. */
const HEAD_READS = 32;

/** `fn` of every item, at most `limit` at once, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** `a, b, c and 12 more`. */
function list(paths: readonly string[]): string {
  const named = paths.slice(0, NAMED).join(', ');
  return paths.length > NAMED ? `${named} and ${paths.length - NAMED} more` : named;
}

async function readMarker(file: string): Promise<{ written?: readonly string[] } | undefined> {
  try {
    const marker = JSON.parse(await readFile(file, 'utf8')) as { generator?: unknown; written?: unknown };
    if (marker.generator !== MARKER_GENERATOR) return undefined;
    return Array.isArray(marker.written) && marker.written.every((p) => typeof p === 'string')
      ? { written: marker.written as string[] }
      : {};
  } catch {
    return undefined;
  }
}

/** Root files of every export. */
const ROOT_FILES = new Set(['manifest.json', 'index.html', '.nojekyll', '_headers', MARKER_FILE]);
/** The folders of answers: every file in them is a `.json` answer. */
const ANSWER_FOLDERS = new Set(['catalog', 'meta', 'stream', 'subtitles', 'addon_catalog']);

/**
 * An export written before exports listed their files (marker version 1 or 2): what has the shape
 * of an export's file is taken as its own, anything else is someone else's.
 */
function shapedAsExport(path: string): boolean {
  const slash = path.indexOf('/');
  if (slash === -1) return ROOT_FILES.has(path);
  return ANSWER_FOLDERS.has(path.slice(0, slash)) && path.endsWith('.json');
}

function ancestors(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

interface Tree {
  /** Everything that is not a folder (a symbolic link is not followed). */
  readonly files: { readonly path: string; readonly symlink: boolean }[];
  readonly folders: string[];
}

/** Every file and folder under `dir`, relative, depth first. */
async function walk(dir: string): Promise<Tree> {
  const tree: Tree = { files: [], folders: [] };
  const visit = async (folder: string, prefix: string) => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        tree.folders.push(path);
        await visit(join(folder, entry.name), `${path}/`);
      } else tree.files.push({ path, symlink: entry.isSymbolicLink() });
    }
  };
  await visit(dir, '');
  return tree;
}

/**
 * Create the staging folder beside `outDir` (creating `outDir`'s parent when missing).
 *
 * @example const staging = await createStagingDir('/srv/addon'); // '/srv/.addon.export-Ab12Cd'
 */
export async function createStagingDir(outDir: string): Promise<string> {
  await mkdir(dirname(outDir), { recursive: true });
  // mkdir, not mkdtemp: mkdtemp makes the folder 0700, and a static web server running as
  // another user could then read nothing. FOLDER_MODE less the umask, as the files take FILE_MODE.
  for (;;) {
    const staging = join(dirname(outDir), `.${basename(outDir)}.export-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(staging, { mode: FOLDER_MODE });
      return staging;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** What `swapIn` could not delete: files that appeared after the check, kept in `folder`. */
export interface LeftAside {
  readonly folder: string;
  readonly files: readonly string[];
}

/**
 * Move `staging` to `outDir`. An existing folder is first renamed aside, then emptied of the
 * files `previous.removable` names (each file, not the folder: something written meanwhile is
 * never deleted) and removed: between the two renames (microseconds) `outDir` is missing, never
 * half-written. On failure the old folder is put back. Returns what could not be removed.
 *
 * @example await swapIn(staging, '/srv/addon', await checkOutDir('/srv/addon', false));
 */
export async function swapIn(staging: string, outDir: string, previous: OutDir): Promise<LeftAside | undefined> {
  if (previous.state === 'absent') {
    await rename(staging, outDir);
    return undefined;
  }
  const aside = join(dirname(outDir), `.${basename(outDir)}.old-${randomBytes(6).toString('hex')}`);
  await rename(outDir, aside);
  try {
    await rename(staging, outDir);
  } catch (error) {
    await rename(aside, outDir);
    throw error;
  }
  const left = await removeOnly(aside, previous.removable);
  return left.length === 0 ? undefined : { folder: aside, files: left };
}

/** Deletes the files of `dir` that `removable` names and the folders left empty; returns what is left. */
async function removeOnly(dir: string, removable: ReadonlySet<string>): Promise<string[]> {
  const left: string[] = [];
  const visit = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = prefix + entry.name;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await visit(full, `${path}/`);
      else if (removable.has(path) && protectedName(path) === undefined) await unlink(full);
      else left.push(path);
    }
    await rmdir(folder).catch(() => {});
  };
  await visit(dir, '');
  return left;
}
