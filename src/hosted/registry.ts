import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SetCounts } from './import.js';

/**
 * One source set as the registry keeps it: never its sources (those live only in users' tokens).
 * Only a set whose first import succeeded is recorded.
 */
export interface SetRecord {
  readonly key: string;
  readonly createdAt: number;
  /** The last use, to the minute (LRU eviction, `hosted.minKeepMinutes`). */
  lastUsedAt: number;
  /** When data was last imported well (refresh is due `refresh.intervalHours` after it). */
  importedAt?: number;
  lastImport?: { at: number; outcome: 'imported' | 'failed'; problem?: string };
  counts?: SetCounts;
  /** Bytes on disk: the store file, its WAL and its copies of the sources. */
  bytes?: number;
}

export interface Registry {
  get(key: string): SetRecord | undefined;
  /** Records a set (its first import succeeded); the caller has made room for it. */
  add(record: SetRecord): void;
  /** Notes a use of a recorded set; written only when it moves its last use by a minute or more. */
  use(key: string, now: number): void;
  /** Call after editing a record's fields: the registry writes it soon. */
  changed(): void;
  remove(key: string): void;
  all(): SetRecord[];
  readonly size: number;
  /** Write the index now if it changed (also done at most once a second after changes). */
  flush(): void;
  close(): void;
}

export const REGISTRY_FILE = 'sets.json';

/** A last use is kept to the minute: a set used every few seconds does not rewrite the file. */
const USE_PRECISION_MS = 60_000;

/** Read the registry of `dir` without opening it for writing (for `marquee status`). */
export function readRegistry(dir: string): SetRecord[] {
  const file = join(dir, REGISTRY_FILE);
  if (!existsSync(file)) return [];
  const data = JSON.parse(readFileSync(file, 'utf8')) as { sets?: Record<string, SetRecord> };
  return Object.values(data.sets ?? {});
}

/**
 * The index of source sets, a JSON file in the hosted folder, replaced atomically (write, then
 * rename) and private (0600). Writes are batched: at most one every `flushMs` (1 s), none when
 * nothing changed. Records the file holds beyond `maxSets` (the most recently used kept) and
 * records of sets that never imported (written by older versions) are not loaded: `dropped`
 * names them, for the caller to delete their files.
 */
export function openRegistry(
  dir: string,
  options: { flushMs?: number; maxSets?: number } = {},
): Registry & { readonly dropped: readonly string[] } {
  const file = join(dir, REGISTRY_FILE);
  const sets = new Map<string, SetRecord>();
  const dropped: string[] = [];
  const loaded = readRegistry(dir).sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  for (const record of loaded) {
    if (record.importedAt === undefined || sets.size >= (options.maxSets ?? Number.POSITIVE_INFINITY)) {
      dropped.push(record.key);
    } else sets.set(record.key, record);
  }
  let dirty = dropped.length > 0;
  let timer: NodeJS.Timeout | undefined;
  const flushMs = options.flushMs ?? 1_000;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, sets: Object.fromEntries(sets) })}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  };
  const changed = () => {
    dirty = true;
    if (!timer) {
      timer = setTimeout(flush, flushMs);
      timer.unref();
    }
  };
  return {
    dropped,
    get: (key) => sets.get(key),
    add(record) {
      sets.set(record.key, record);
      changed();
    },
    use(key, now) {
      const record = sets.get(key);
      if (!record || now - record.lastUsedAt < USE_PRECISION_MS) return;
      record.lastUsedAt = now;
      changed();
    },
    changed,
    remove(key) {
      if (sets.delete(key)) changed();
    },
    all: () => [...sets.values()],
    get size() {
      return sets.size;
    },
    flush,
    close: flush,
  };
}
