/**
 * The key ring file of a running server, watched: `marquee rotate-key` (a new current key, or old
 * ones dropped after a leak) is taken within a second, and at once on SIGHUP. The ring is known
 * by its bytes, not its file's times: a SIGHUP or a `touch` that changed nothing rebuilds nothing
 * and logs nothing (every SIGHUP used to log "reloaded the key ring": 1,361 lines for 4,000).
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';
import { fileChanges } from './file-changes.js';
import { MAX_KEY_RING_BYTES } from './keys.js';

export interface KeyRingWatch {
  /** Reads the file now; calls `onChange` with its bytes when they changed. */
  check(): void;
  stop(): void;
}

/**
 * @example const keys = watchKeyRing('marquee.db.keys.json', { onChange: rebuild }); io.onReload?.(() => keys.check())
 */
export function watchKeyRing(
  file: string,
  options: { readonly intervalMs?: number; readonly onChange: (bytes: Buffer) => void },
): KeyRingWatch {
  const changed = fileChanges(file, MAX_KEY_RING_BYTES);
  const check = () => {
    const bytes = changed();
    if (bytes !== undefined) options.onChange(bytes);
  };
  const onFile = (now: Stats, before: Stats) => {
    if (now.nlink === 0 && now.mtimeMs === 0) return; // gone: the next build creates it
    if (now.ino === before.ino && now.mtimeMs === before.mtimeMs && now.size === before.size) return;
    check();
  };
  watchFile(file, { interval: options.intervalMs ?? 1_000, persistent: false }, onFile);
  return {
    check,
    stop: () => unwatchFile(file, onFile),
  };
}
