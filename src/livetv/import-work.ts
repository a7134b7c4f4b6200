/** The work folder of one live-TV import: a copy of each guide as it is read, removed when the import ends. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type CopyFile, createCopyFile } from '../sources/input/index.js';
import { copiesDir } from '../store/index.js';

/** The work folder of one import: the copies of the guides as they are read. */
export interface WorkDir {
  /** A new copy file for the source of `kind` at `location` (one per source per import). */
  copy(kind: string, location: string): CopyFile;
  remove(): void;
}

/**
 * The work folder: given, or a new one in the store's copies folder (copies can be as large as a
 * guide, so not in a RAM-backed /tmp; on the copies' file system, a good one is moved into place
 * at the commit), removed when the import ends.
 */
export function workDir(storeFile: string, given: string | undefined): WorkDir {
  let dir: string | undefined;
  let made = false;
  let n = 0;
  const copies = new Map<string, CopyFile>();
  return {
    copy(kind, location) {
      const id = `${kind}:${location}`;
      const existing = copies.get(id);
      if (existing) return existing;
      if (dir === undefined) {
        if (given !== undefined) {
          mkdirSync(given, { recursive: true, mode: 0o700 });
          dir = given;
        } else {
          const copies = copiesDir(storeFile);
          // 0700 whatever the umask (mkdtemp below is 0700 by itself): the copies hold stream URLs.
          mkdirSync(copies, { recursive: true, mode: 0o700 });
          dir = mkdtempSync(join(copies, `work-${process.pid}-`));
          made = true;
        }
      }
      const file = createCopyFile(join(dir, `${kind}-${n++}.copy`));
      copies.set(id, file);
      return file;
    },
    remove() {
      for (const copy of copies.values()) {
        copy.discard();
        rmSync(copy.path, { force: true });
      }
      if (made && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
