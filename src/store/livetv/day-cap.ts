/**
 * Programmes per guide channel per day (issue 48, `livetv.maxProgrammesPerDay`). Bytes and
 * text lengths bound one programme; nothing bounded how many one guide channel has in a day, and
 * a guide of 50,000 programmes on one channel in one day made its meta 8.6 MB and its guide page
 * 14.8 MB. A guide channel keeps the earliest-starting `max` programmes of each UTC day of their
 * start, once the merge rules have run; the rest are counted, never stored. Real guides have at
 * most a few hundred a day on one channel (a music channel listing every song).
 *
 * Keys whose programmes come in start order are counted as they are added (their day only moves
 * forward: a running count per key, two array slots); the merge path counts each key's resolved
 * programmes at commit (merge.ts, finish.ts).
 */
import { GUIDE_DAY_MS } from '../../protocol/index.js';
import type { OverDayCap } from './types.js';

/** The default of `livetv.maxProgrammesPerDay`. */
export const DEFAULT_MAX_PROGRAMMES_PER_DAY = 1_440;

/** The guide channel day with the most programmes past the cap so far. */
interface Worst {
  readonly keyId: number;
  readonly day: number;
  readonly programmes: number;
}

/** Counts programmes per guide key and day of start against `max`. */
export class DayCap {
  readonly max: number;
  /** Per key id (ordered path): the day (UTC days since the epoch) counted, and its programmes. */
  readonly #day: number[] = [];
  readonly #count: number[] = [];
  /** Programmes past the cap, in all. */
  dropped = 0;
  /** Guide channel days past the cap. */
  #days = 0;
  #worst: Worst | undefined;

  constructor(max: number = DEFAULT_MAX_PROGRAMMES_PER_DAY) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new Error(`maxProgrammesPerDay must be a positive integer, got ${max}`);
    this.max = max;
  }

  /**
   * Counts a programme of `keyId` starting at `start` (a key's programmes in start order): true
   * when it is within its day's cap, false (and counted as dropped) when past it.
   */
  admit(keyId: number, start: number): boolean {
    const day = Math.floor(start / GUIDE_DAY_MS);
    if (this.#day[keyId] !== day) {
      this.#close(keyId);
      this.#day[keyId] = day;
      this.#count[keyId] = 0;
    }
    const count = this.#count[keyId]! + 1;
    this.#count[keyId] = count;
    if (count <= this.max) return true;
    this.dropped++;
    return false;
  }

  /**
   * The programmes of one key (in start order, as the merge rules left them) within the cap; the
   * others are counted as dropped.
   */
  keep<T extends { readonly start: number }>(keyId: number, programmes: readonly T[]): T[] {
    const kept: T[] = [];
    let day = Number.NaN;
    let count = 0;
    for (const p of programmes) {
      const d = Math.floor(p.start / GUIDE_DAY_MS);
      if (d !== day) {
        this.#note(keyId, day, count);
        day = d;
        count = 0;
      }
      count++;
      if (count <= this.max) kept.push(p);
      else this.dropped++;
    }
    this.#note(keyId, day, count);
    return kept;
  }

  /** What went past the cap, naming its worst guide channel day by `keyOf` its id; undefined when nothing did. */
  report(keyOf: (keyId: number) => string | undefined): OverDayCap | undefined {
    for (const keyId of this.#day.keys()) this.#close(keyId);
    const worst = this.#worst;
    if (worst === undefined || this.dropped === 0) return undefined;
    return {
      key: keyOf(worst.keyId) ?? String(worst.keyId),
      day: new Date(worst.day * GUIDE_DAY_MS).toISOString().slice(0, 10),
      programmes: worst.programmes,
      kept: this.max,
      days: this.#days,
    };
  }

  /** The ordered path's running day of `keyId` is over: noted when it went past the cap. */
  #close(keyId: number): void {
    const count = this.#count[keyId];
    if (count === undefined) return;
    this.#note(keyId, this.#day[keyId]!, count);
    this.#count[keyId] = 0;
  }

  #note(keyId: number, day: number, programmes: number): void {
    if (programmes <= this.max) return;
    this.#days++;
    if (this.#worst === undefined || programmes > this.#worst.programmes) this.#worst = { keyId, day, programmes };
  }
}
