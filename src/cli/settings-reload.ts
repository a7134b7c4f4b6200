/**
 * SIGHUP and the settings file. `serve` reads its settings once, at start: a SIGHUP reloads the
 * key ring, the certificate and the database file, not the settings. An operator who edits the
 * file and sends SIGHUP (as for nginx) is told so, once per change of the file, rather than left
 * to guess why nothing happened; a SIGHUP that finds the file as it was logs nothing.
 */
import { fileChanges } from './file-changes.js';

/** A settings file is a few KB; past this it is not read again (it was read whole at start). */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/**
 * The SIGHUP listener that says when the settings file changed since start (or since it last said so).
 * @example io.onReload?.(settingsReload(resolved.file, (m) => log.warn(m)))
 */
export function settingsReload(file: string | undefined, warn: (message: string) => void): () => void {
  if (file === undefined) return () => {};
  const changed = fileChanges(file, MAX_SETTINGS_BYTES);
  return () => {
    if (changed() === undefined) return;
    warn(
      `${file} changed: settings are read at start only, restart marquee serve to apply them (SIGHUP reloads the key ring, the TLS certificate and the database file)`,
    );
  };
}
