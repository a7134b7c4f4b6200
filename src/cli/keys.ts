import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { MarqueeError } from '../errors.js';
import { generateKeyRing, type KeyRing, parseKeyRing, readRegularFileSync, serializeKeyRing } from '../server/index.js';

/** A key ring holds a few keys; a megabyte is far past any real one. */
export const MAX_KEY_RING_BYTES = 1024 * 1024;

/**
 * The key ring that encrypts user configuration in install links: read from its file, or
 * generated once and written there (mode 0600) so links keep working across restarts.
 */
export function loadOrCreateKeyRing(file: string): { ring: KeyRing; created: boolean } {
  if (existsSync(file)) {
    try {
      // Never waits on a path that is not a regular file (a FIFO): refused, named.
      return { ring: parseKeyRing(readRegularFileSync(file, MAX_KEY_RING_BYTES).toString('utf8')), created: false };
    } catch (error) {
      throw new MarqueeError('INVALID_SETTINGS', `the key file ${file} cannot be used: ${(error as Error).message}`);
    }
  }
  const ring = generateKeyRing();
  writeFileSync(file, serializeKeyRing(ring), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { ring, created: true };
}
