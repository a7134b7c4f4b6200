/**
 * Why the first import of a source set was refused (a source failed, or the import did), kept a
 * while in memory for the configure page that watched it: its reloads, and the user's link opened
 * again, say why instead of importing again (the first import of a refused set leaves no files,
 * so without this each reload started it anew). Never logged: it is shown only to whoever holds
 * those sources (the set's key is derived from them). Bounded in time and in count.
 */

/** How long a refusal is kept. */
export const REFUSAL_KEPT_MS = 10 * 60_000;
/** Refusals kept at most (each a key and a message); the oldest go first. */
export const MAX_REFUSALS_KEPT = 1_000;

export interface Refusal {
  readonly code: string;
  readonly message: string;
}

export interface RefusedSets {
  note(key: string, refusal: Refusal): void;
  /** The refusal of `key` within REFUSAL_KEPT_MS, if any. */
  get(key: string): Refusal | undefined;
  drop(key: string): void;
}

/** @example const refused = createRefusedSets(Date.now); refused.note(key, { code: 'SOURCE_INVALID', message }) */
export function createRefusedSets(now: () => number): RefusedSets {
  const kept = new Map<string, Refusal & { readonly at: number }>();
  return {
    note(key, refusal) {
      kept.delete(key);
      kept.set(key, { ...refusal, at: now() });
      for (const old of kept.keys()) {
        if (kept.size <= MAX_REFUSALS_KEPT) break;
        kept.delete(old);
      }
    },
    get(key) {
      const refusal = kept.get(key);
      if (refusal === undefined) return undefined;
      if (now() - refusal.at > REFUSAL_KEPT_MS) {
        kept.delete(key);
        return undefined;
      }
      return { code: refusal.code, message: refusal.message };
    },
    drop: (key) => void kept.delete(key),
  };
}
