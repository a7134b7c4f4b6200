import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { MarqueeError } from '../errors.js';
import { generateKeyRing, type KeyRing, parseKeyRing, serializeKeyRing } from '../server/index.js';

/**
 * The key ring that encrypts user configuration in install links: read from its file, or
 * generated once and written there (mode 0600) so links keep working across restarts.
 */
export function loadOrCreateKeyRing(file: string): { ring: KeyRing; created: boolean } {
  if (existsSync(file)) {
    try {
      return { ring: parseKeyRing(readFileSync(file, 'utf8')), created: false };
    } catch (error) {
      throw new MarqueeError('INVALID_SETTINGS', `the key file ${file} cannot be used: ${(error as Error).message}`);
    }
  }
  const ring = generateKeyRing();
  writeFileSync(file, serializeKeyRing(ring), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { ring, created: true };
}
