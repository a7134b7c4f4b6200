/**
 * Per-source state: what each configured source (a playlist, a guide, a library file) last
 * contributed when it was good, a copy of that input, and how its latest attempt went. A
 * backend rebuilds its whole area from every source at each import; a source that goes bad is
 * then rebuilt from its last good copy instead, so it keeps serving what it served.
 *
 * States are rows written inside the area's import transaction. Copies are files in a folder
 * beside the store file (`<store>.sources/`): a guide's copy is as large as the guide (or its
 * gzip), and SQLite writing hundreds of MB of blobs in the import's transaction cost more than
 * the import itself, where a rename costs nothing. Each copy has a name of its own; the state
 * names its file and size. A new copy is moved in before the commit, and the one it replaces is
 * removed after it, so a crash leaves the committed state's file in place (and at worst an
 * unreferenced file, removed by the next import).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Connection } from './connection.js';

/**
 * How a source's latest attempt went:
 * - `imported`: read and judged good; what it holds now is served and its copy replaced.
 * - `unchanged`: answered "not modified"; its last good copy is served.
 * - `kept`: unreadable, not its format, empty or shrunk; its last good copy is served.
 * - `none`: bad, and it never imported well: it contributes nothing.
 */
export type SourceOutcome = 'imported' | 'unchanged' | 'kept' | 'none';

/** What a source yields, by what it holds (`channels`, `programmes`, `items`...). */
export type SourceCounts = Readonly<Record<string, number>>;

/** The outcome of one source in one import, as the backend judged it. */
export interface SourceAttempt {
  /** `sourceKey(kind, location)`: stable across imports, and holds no secret. */
  readonly key: string;
  /** `playlist`, `guide`, `library`... */
  readonly kind: string;
  /** The location with credentials redacted: safe to show. */
  readonly label: string;
  readonly outcome: SourceOutcome;
  /** Why it was kept or contributes nothing. */
  readonly reason?: string;
  /** `imported` / `unchanged`: what it yields now (becomes its last good counts). */
  readonly counts?: SourceCounts;
  /**
   * `imported`: the bytes to read it back from if it goes bad later (the backend's choice of
   * encoding): chunks, or a finished file to move into the copies folder (it should be on the
   * same file system: the work folder `copiesDir(file)/work-…` is). Without one the source keeps
   * its previous copy.
   */
  readonly copy?: Iterable<Uint8Array> | { readonly file: string };
}

/** A source's state as stored. */
export interface SourceState {
  readonly key: string;
  /** The import kind that owns it: `livetv`, `library`. */
  readonly area: string;
  readonly kind: string;
  readonly label: string;
  /** Its position among the area's sources at the latest attempt. */
  readonly position: number;
  /** When it last imported well (epoch ms); undefined when it never did. */
  readonly goodAt?: number;
  /** What it yielded then. */
  readonly goodCounts?: SourceCounts;
  /** Size of its last good copy in bytes; undefined when there is none (or its file is gone). */
  readonly copyBytes?: number;
  readonly attemptAt?: number;
  readonly outcome?: SourceOutcome;
  readonly reason?: string;
  /** Start of the current run of `kept` / `none` outcomes; undefined while it is good. */
  readonly keptSince?: number;
}

const CHUNK_BYTES = 1024 * 1024;

/** The folder of the copies of the sources of the store in `storeFile`. */
export function copiesDir(storeFile: string): string {
  return `${storeFile}.sources`;
}

/** Files a state write placed (removed if the transaction does not commit) and replaced (removed once it did). */
export interface CopyChanges {
  readonly placed: string[];
  readonly obsolete: string[];
}

/** Removes `files`, best effort (a leftover is removed by the next import's sweep). */
export function removeCopies(files: readonly string[]): void {
  for (const file of files) rmSync(file, { force: true });
}

/**
 * The key of the source of `kind` at `location`: a hash, so the table never holds the
 * credentials a URL may carry.
 * @example sourceKey('guide', 'https://u:p@x.example/epg.xml') // 'guide:5f0c…'
 */
export function sourceKey(kind: string, location: string): string {
  return `${kind}:${createHash('sha256').update(location).digest('hex').slice(0, 32)}`;
}

/**
 * Records `attempts` (every source of `area`, in order) inside the caller's transaction, moving
 * the copies of those imported into `dir`. With `prune`, states of sources no longer among them
 * go, with their copies: the caller is committing a rebuild of the whole area from exactly these
 * sources. The caller removes `placed` when it does not commit and `obsolete` once it did.
 */
export function writeSourceStates(
  db: Connection,
  area: string,
  attempts: readonly SourceAttempt[],
  now: number,
  options: { readonly prune: boolean; readonly dir: string },
): CopyChanges {
  const changes: CopyChanges = { placed: [], obsolete: [] };
  const existing = db
    .prepare('SELECT key, kept_since, copy_file FROM source_states WHERE area = ?')
    .raw()
    .all(area) as [string, number | null, string | null][];
  const keptSince = new Map(existing.map(([key, since]) => [key, since]));
  const copyFile = new Map(existing.map(([key, , file]) => [key, file]));
  const upsert = db.prepare(`
    INSERT INTO source_states (key, area, kind, label, position, attempt_at, outcome, reason, kept_since)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET area = excluded.area, kind = excluded.kind, label = excluded.label,
      position = excluded.position, attempt_at = excluded.attempt_at, outcome = excluded.outcome,
      reason = excluded.reason, kept_since = excluded.kept_since`);
  const good = db.prepare('UPDATE source_states SET good_at = ?, good_counts = ? WHERE key = ?');
  const setCopy = db.prepare('UPDATE source_states SET copy_file = ?, copy_bytes = ? WHERE key = ?');
  const seen = new Set<string>();
  try {
    attempts.forEach((a, position) => {
      seen.add(a.key);
      const bad = a.outcome === 'kept' || a.outcome === 'none';
      const since = bad ? (keptSince.get(a.key) ?? now) : null;
      upsert.run(a.key, area, a.kind, a.label, position, now, a.outcome, a.reason ?? null, since);
      if (!bad) good.run(now, JSON.stringify(a.counts ?? {}), a.key);
      if (a.outcome === 'imported' && a.copy !== undefined) {
        const placed = placeCopy(options.dir, a.key, a.copy);
        changes.placed.push(placed.path);
        setCopy.run(placed.name, placed.bytes, a.key);
        const old = copyFile.get(a.key);
        if (old) changes.obsolete.push(join(options.dir, old));
      }
    });
    if (options.prune) {
      const drop = db.prepare('DELETE FROM source_states WHERE key = ?');
      for (const [key, , file] of existing) {
        if (seen.has(key)) continue;
        drop.run(key);
        if (file) changes.obsolete.push(join(options.dir, file));
      }
      sweep(db, options.dir, changes);
    }
  } catch (error) {
    removeCopies(changes.placed);
    throw error;
  }
  return changes;
}

/** Moves or writes copy `copy` of source `key` into `dir` under a name of its own. */
function placeCopy(
  dir: string,
  key: string,
  copy: Iterable<Uint8Array> | { readonly file: string },
): { name: string; path: string; bytes: number } {
  // The copies hold what sources served (stream URLs with accounts in them): 0700 and 0600,
  // whatever the umask (under umask 000 the folder was 0777).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `${key.replace(/[^a-z0-9]+/gi, '-')}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.copy`;
  const path = join(dir, name);
  if ('file' in copy) {
    try {
      renameSync(copy.file, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      copyFileSync(copy.file, path);
      // A copy takes its source's mode: made private again.
      chmodSync(path, 0o600);
      rmSync(copy.file, { force: true });
    }
    return { name, path, bytes: statSync(path).size };
  }
  const fd = openSync(path, 'w', 0o600);
  let bytes = 0;
  try {
    for (const chunk of copy) bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { name, path, bytes };
}

/**
 * Removes copies no state names any more (left by a crash between a commit and the removal of
 * what it replaced), and work folders of imports that ended more than a day ago. Runs inside an
 * import's transaction, so no other import is placing files meanwhile.
 */
function sweep(db: Connection, dir: string, changes: CopyChanges): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const named = new Set(
    (db.prepare('SELECT copy_file FROM source_states WHERE copy_file IS NOT NULL').pluck().all() as string[]).concat(
      changes.obsolete.map((p) => p.slice(dir.length + 1)),
    ),
  );
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name.endsWith('.copy') && !named.has(entry.name)) rmSync(path, { force: true });
    else if (entry.isDirectory() && entry.name.startsWith('work-')) {
      const age = Date.now() - statSync(path).mtimeMs;
      if (age > 24 * 3_600_000) rmSync(path, { recursive: true, force: true });
    }
  }
}

type StateRow = [
  string,
  string,
  string,
  string,
  number,
  number | null,
  string | null,
  string | null,
  number | null,
  number | null,
  string | null,
  string | null,
  number | null,
];

function stateOf(r: StateRow, dir: string): SourceState {
  const [
    key,
    area,
    kind,
    label,
    position,
    goodAt,
    goodCounts,
    copyFile,
    copyBytes,
    attemptAt,
    outcome,
    reason,
    keptSince,
  ] = r;
  return {
    key,
    area,
    kind,
    label,
    position,
    ...(goodAt !== null ? { goodAt } : {}),
    ...(goodCounts !== null ? { goodCounts: JSON.parse(goodCounts) as SourceCounts } : {}),
    ...(copyFile !== null && copyBytes !== null && fileSize(join(dir, copyFile)) === copyBytes ? { copyBytes } : {}),
    ...(attemptAt !== null ? { attemptAt } : {}),
    ...(outcome !== null ? { outcome: outcome as SourceOutcome } : {}),
    ...(reason !== null ? { reason } : {}),
    ...(keptSince !== null ? { keptSince } : {}),
  };
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Reads of the source states on one connection, statements prepared once; copies in `dir`. */
export function sourceReads(db: Connection, dir: string) {
  const columns =
    'key, area, kind, label, position, good_at, good_counts, copy_file, copy_bytes, attempt_at, outcome, reason, kept_since';
  const all = db.prepare(`SELECT ${columns} FROM source_states ORDER BY area, position`).raw();
  const byArea = db.prepare(`SELECT ${columns} FROM source_states WHERE area = ? ORDER BY position`).raw();
  const copyOf = db.prepare('SELECT copy_file, copy_bytes FROM source_states WHERE key = ?').raw();
  return {
    /**
     * The state of every source of `area` (every area when omitted), in order. `copyBytes` is
     * set only when the copy's file is there with its recorded size.
     */
    sourceStates(area?: string): SourceState[] {
      const rows = (area === undefined ? all.all() : byArea.all(area)) as StateRow[];
      return rows.map((r) => stateOf(r, dir));
    },
    /**
     * The last good copy of source `key`, a chunk at a time (each read when asked for, so a large
     * copy is never whole in memory); empty when there is none. Throws naming the source when
     * its file is gone or not of its recorded size.
     */
    *sourceCopy(key: string): Generator<Buffer> {
      const row = copyOf.get(key) as [string | null, number | null] | undefined;
      if (row === undefined || row[0] === null) return;
      const path = join(dir, row[0]);
      if (fileSize(path) !== row[1])
        throw new Error(`the stored copy of source ${key} (${path}) is missing or damaged`);
      const fd = openSync(path, 'r');
      try {
        for (;;) {
          const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
          const n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
          if (n === 0) return;
          yield n === CHUNK_BYTES ? buffer : buffer.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

export type SourceReads = ReturnType<typeof sourceReads>;
