import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SetCounts } from './import.js';

/** One source set as the registry keeps it: never its sources (those live only in users' tokens). */
export interface SetRecord {
  readonly key: string;
  readonly createdAt: number;
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
  /** The record of `key`, created when new. */
  touch(key: string, now: number): SetRecord;
  /** Call after editing a record's fields: the registry writes it soon. */
  changed(): void;
  remove(key: string): void;
  all(): SetRecord[];
  /** Write the index now if it changed (also done a moment after every change). */
  flush(): void;
  close(): void;
}

export const REGISTRY_FILE = 'sets.json';

/** Read the registry of `dir` without opening it for writing (for `marquee status`). */
export function readRegistry(dir: string): SetRecord[] {
  const file = join(dir, REGISTRY_FILE);
  if (!existsSync(file)) return [];
  const data = JSON.parse(readFileSync(file, 'utf8')) as { sets?: Record<string, SetRecord> };
  return Object.values(data.sets ?? {});
}

/**
 * The index of source sets, a JSON file in the hosted folder, replaced atomically (write, then
 * rename). Last-use times change on every request: they are written at most every `flushMs`.
 */
export function openRegistry(dir: string, options: { flushMs?: number } = {}): Registry {
  const file = join(dir, REGISTRY_FILE);
  const sets = new Map<string, SetRecord>();
  for (const record of readRegistry(dir)) sets.set(record.key, record);
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  const flushMs = options.flushMs ?? 2_000;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, sets: Object.fromEntries(sets) })}\n`, { mode: 0o600 });
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
    get: (key) => sets.get(key),
    touch(key, now) {
      let record = sets.get(key);
      if (!record) {
        record = { key, createdAt: now, lastUsedAt: now };
        sets.set(key, record);
      }
      record.lastUsedAt = now;
      changed();
      return record;
    },
    changed,
    remove(key) {
      if (sets.delete(key)) changed();
    },
    all: () => [...sets.values()],
    flush,
    close: flush,
  };
}
