/**
 * A full garbage collection on demand, for the moment an import has just dropped most of what it
 * allocated (see LiveTvImportOptions.onChannelsStored). V8 otherwise lets the heap grow to about
 * four times what survived its last collection before it collects again, and that growth, not
 * the data kept, set the import's peak memory: 211 MB for a 50,000-entry playlist and a 370 MB
 * guide, 183-186 MB with this collection (bench/results.md). Node exposes `gc` only behind a V8
 * flag; the flag is set and the function taken from a fresh context, so no global of ours changes.
 * One collection of the import's heap takes a few tens of milliseconds.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Runs a full garbage collection of this thread's heap (once per import: the new context costs about 1 ms). @example collectGarbage() */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * For a server: the young generation grows to its full size (16 MB semi-spaces) at its first
 * growth instead of doubling from 1 MB over its first minute or so. Each doubling maps fresh
 * memory, a fault per 4 KiB page (about 10 µs each on a small VM): guide pages, which leave
 * about 1 MB of short-lived strings each, took 11 ms instead of 4 in runs of 4 during that time.
 * Measured on the 10,000-channel benchmark store, the p99 of the first 700 pages went from 10.7
 * to 9.2 ms with the young generation at full size from the start. The young generation is
 * bounded by V8 either way; this only changes when it gets there.
 */
export function growYoungGenerationAtOnce(): void {
  setFlagsFromString('--semi-space-growth-factor=16');
}
