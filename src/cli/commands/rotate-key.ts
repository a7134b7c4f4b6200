import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { rotateKeyRing, serializeKeyRing } from '../../server/index.js';
import type { Command } from '../command.js';
import { loadOrCreateKeyRing } from '../keys.js';
import { resolveSettings, STORE_OPTIONS } from '../resolve.js';

export const rotateKeyCommand: Command = {
  name: 'rotate-key',
  summary: 'start encrypting new install links with a fresh key; links made with older keys keep working',
  usage: 'marquee rotate-key [--db FILE] [--config FILE] [--drop-old]',
  options: {
    ...STORE_OPTIONS,
    'drop-old': {
      type: 'boolean',
      description: 'remove every older key: install links made with them stop working (use after a leak)',
    },
  },
  notes:
    'The key ring lives in security.configKeyFile (default: <db>.keys.json). A running `marquee serve` watches it and\n' +
    'reloads it within 5 seconds (at once on SIGHUP): dropped keys stop working, new links use the new key.\n' +
    'Exit codes: 0 rotated, 2 bad flags or configuration or an unusable key file.',
  async run(values, _positionals, io) {
    const { settings } = resolveSettings(values, io.cwd);
    const db = settings.db ?? resolve(io.cwd, 'marquee.db');
    const file = settings.security?.configKeyFile ?? `${db}.keys.json`;
    if (!existsSync(file)) {
      const { ring } = loadOrCreateKeyRing(file);
      io.stdout.write(`created ${file}: new links use key ${ring.current}\n`);
      return 0;
    }
    const { ring } = loadOrCreateKeyRing(file);
    const rotated = rotateKeyRing(ring, `k${Date.now().toString(36)}`);
    const next =
      values['drop-old'] === true
        ? { current: rotated.current, keys: { [rotated.current]: rotated.keys[rotated.current]! } }
        : rotated;
    // Write beside, then rename: a crash mid-write must not leave a ring that breaks every link.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, serializeKeyRing(next), { mode: 0o600 });
    renameSync(temp, file);
    const kept = Object.keys(next.keys).length - 1;
    io.stdout.write(
      `rotated ${file}: new links use key ${next.current}; ` +
        `${kept} older key${kept === 1 ? '' : 's'} kept for existing links\n`,
    );
    return 0;
  },
};
