/**
 * An operator's small file (the key ring, the settings) known by its bytes, not its file's times:
 * a SIGHUP or a `touch` that changed nothing is no change. Read without ever waiting on something
 * that is not a regular file (readRegularFileSync), and at most `maxBytes`.
 */
import { readRegularFileSync } from '../server/index.js';

/** The file's bytes, or undefined when it cannot be read now (gone, a rename in progress, not a file, too large). */
function read(file: string, maxBytes: number): Buffer | undefined {
  try {
    return readRegularFileSync(file, maxBytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads `file` now, and returns what reads it again: its bytes when they differ from the last
 * seen, else undefined (the same, or unreadable for a moment: the next look sees the result).
 * @example const changed = fileChanges('marquee.db.keys.json', 1 << 20); const bytes = changed(); if (bytes) reload(bytes)
 */
export function fileChanges(file: string, maxBytes: number): () => Buffer | undefined {
  let seen = read(file, maxBytes);
  return () => {
    const now = read(file, maxBytes);
    if (now === undefined || (seen !== undefined && now.equals(seen))) return undefined;
    seen = now;
    return now;
  };
}
