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
 * Turns V8's allocation-site pretenuring off for this process: for `marquee import`, which owns
 * its process. When a scavenge finds most objects of an allocation site alive, V8 allocates that
 * site's objects in the old generation from then on; a guide's programme batches, caught alive
 * once while the importing thread was busy (reading a playlist's names for matching, say), then
 * go straight to the old generation, which grows by about 80 MB between full collections: the
 * benchmark import peaked at 285-293 MB in most runs (and took 4.7-5.0 s instead of 3.8-4.0),
 * and which way a run went depended on timing. Without pretenuring it peaks at 197-213 MB in every
 * run (bench/README.md, "Import memory and pretenuring").
 * @example noPretenuring()
 */
export function noPretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
