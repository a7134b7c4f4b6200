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
