/**
 * Room for source sets: at most `maxSets` in the registry and `budget` bytes on disk. Room is
 * made by evicting the least recently used sets, never one used within `minKeepMs` nor one being
 * imported: a crowd of new sets cannot push out the sets people use; when nothing may go, a new
 * set is refused instead.
 */
import type { Registry, SetRecord } from './registry.js';

export interface Capacity {
  /** Could a new set be recorded now (evicting what may be evicted)? Nothing is evicted to answer. */
  roomForNew(key: string): boolean;
  /**
   * Evicts what may be evicted until `count` sets fit maxSets and `bytes` the disk budget (`keep`
   * spared); true when they fit.
   */
  makeRoom(keep: string, count: number, bytes: number): boolean;
  /** Bytes the recorded sets use. */
  diskUse(): number;
}

export interface CapacityOptions {
  readonly registry: Registry;
  readonly maxSets: number;
  readonly budget: number;
  readonly minKeepMs: number;
  readonly now: () => number;
  /** Is an import of set `key` running or queued? */
  readonly importing: (key: string) => boolean;
  /** Deletes a set (files, record), saying why. */
  readonly evict: (record: SetRecord, why: string) => void;
}

/** @example const capacity = createCapacity({ registry, maxSets: 500, budget, minKeepMs: 3_600_000, now, importing, evict }) */
export function createCapacity(o: CapacityOptions): Capacity {
  const evictable = (keep: string) => {
    const cutoff = o.now() - o.minKeepMs;
    return o.registry
      .all()
      .filter((s) => s.key !== keep && !o.importing(s.key) && s.lastUsedAt <= cutoff)
      .sort((a, b) => a.lastUsedAt - b.lastUsedAt);
  };
  return {
    roomForNew: (key) => o.registry.size < o.maxSets || evictable(key).length > 0,
    makeRoom(keep, count, bytes) {
      for (const s of evictable(keep)) {
        if (count <= o.maxSets && bytes <= o.budget) break;
        o.evict(s, count > o.maxSets ? 'maxSourceSets' : 'diskBudgetMegabytes');
        count--;
        bytes -= s.bytes ?? 0;
      }
      return count <= o.maxSets && bytes <= o.budget;
    },
    diskUse: () => o.registry.all().reduce((sum, s) => sum + (s.bytes ?? 0), 0),
  };
}
