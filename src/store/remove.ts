import { rmSync } from 'node:fs';
import { copiesDir } from './sources.js';

/**
 * Delete a store's files: the database, its `-wal` and `-shm`, and the folder of its sources' last
 * good copies. For a store that a first import created and could not fill: it leaves nothing
 * behind, so the next attempt starts as the first did (close the store first).
 *
 * @example if (created && !usable) { store.close(); removeStoreFiles(file); }
 */
export function removeStoreFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
  rmSync(copiesDir(file), { recursive: true, force: true });
}
