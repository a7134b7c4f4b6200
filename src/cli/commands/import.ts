import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openStore, removeStoreFiles } from '../../store/index.js';
import { importAll } from '../app.js';
import type { Command } from '../command.js';
import { noPretenuring } from '../memory.js';
import { createProgress } from '../progress.js';
import { describeOutcome, importSucceeded, importVerdict } from '../report.js';
import { resolveSettings, SOURCE_OPTIONS, STORE_OPTIONS } from '../resolve.js';
import { stopOnSignal } from '../shutdown.js';

/**
 * The outcome as JSON text, errors as `{ error, code }`: stringified once (a copy parsed back
 * and stringified again held the report three times over, and `livetv.matches` of a
 * 50,000-entry playlist is tens of megabytes of it).
 */
function jsonOf(outcome: unknown): string {
  return JSON.stringify(
    outcome,
    (_key, value) =>
      value instanceof Error ? { error: value.message, code: (value as { code?: string }).code } : value,
    2,
  );
}

export const importCommand: Command = {
  name: 'import',
  summary: 'import playlists, guides and libraries into the database (atomically)',
  usage:
    'marquee import [--playlist PATH|URL] [--epg PATH|URL] [--library PATH|URL] [--xtream URL] [--accept-shrink [SOURCE]] [--allow-private-sources] [--db FILE] [--config FILE]',
  options: {
    ...SOURCE_OPTIONS,
    ...STORE_OPTIONS,
    'accept-shrink': {
      type: 'string',
      multiple: true,
      optionalValue: true,
      value: 'SOURCE',
      description:
        'take a source that shrank past sources.minYieldRatio of its last good import anyway: this source (a path or URL as configured), or every source when none is named',
    },
    'allow-private-sources': {
      type: 'boolean',
      env: 'MARQUEE_ALLOW_PRIVATE_SOURCES',
      description:
        "let URLs the sources name themselves (a playlist's url-tvg) reach loopback and private addresses (a home network, tests)",
    },
    json: { type: 'boolean', description: 'print the import report as JSON (for scripts)' },
  },
  notes:
    'Each part (live TV, library) is imported in one transaction: a failed import leaves the data served before.\n' +
    'Each source is judged on its own: one that cannot be read, is not its format, holds nothing or shrinks below\n' +
    'sources.minYieldRatio (default 0.5) of its last good import keeps serving its last good data (see docs/reliability.md).\n' +
    'Exit codes: 0 every part and every source imported, 1 a part failed or a source was kept from last good or contributes nothing, whatever else imported (the last line says which), 2 bad flags or configuration, 3 database unavailable.\n' +
    'A part (live TV, library, add-on catalogs) that fails keeps serving what it served before.\n' +
    'import.lockTimeoutSeconds (settings file; default 60) bounds the wait for another import writing the database.\n' +
    'SIGINT/SIGTERM stop it within 2 s: what was committed stays, the part in progress is rolled back (exit 1).',
  stopsInOrder: true,
  async run(values, _positionals, io) {
    const { settings } = resolveSettings(values, io.cwd);
    if (
      !settings.livetv?.playlists?.length &&
      !settings.library?.files?.length &&
      !settings.addonCatalogs?.length &&
      !settings.xtream?.length
    ) {
      io.stderr.write(
        'marquee import: nothing to import: give --playlist, --epg, --library or --xtream, or name sources in the configuration file\n',
      );
      return 2;
    }
    const db = settings.db ?? `${io.cwd}/marquee.db`;
    // A first import that imports nothing usable leaves no database (nor copies folder) behind.
    const created = !existsSync(db);
    let leaveNothing = false;
    // This process is the import's alone: its heap is steadier without pretenuring (memory.ts).
    noPretenuring();
    // Nothing else reads the store in this process: a new one is filled without the WAL's double write.
    const store = openStore(db, { fastFirstImport: true });
    // SIGINT/SIGTERM: the import stops, its part in progress rolls back (imports are atomic).
    const stopping = stopOnSignal(io, 'import');
    try {
      const progress = values.json ? undefined : createProgress(io.stderr);
      const accept = Array.isArray(values['accept-shrink']) ? values['accept-shrink'] : undefined;
      const acceptShrink =
        accept === undefined
          ? undefined
          : accept.includes('')
            ? true
            : accept.map((p) => (/^[a-z]+:\/\//i.test(p) ? p : resolve(io.cwd, p)));
      const outcome = await importAll(store, settings, {
        // Nothing else runs in this process: a second core parses the guides.
        parseThread: true,
        ...(progress ? { onProgress: (e) => progress.update(e) } : {}),
        ...(acceptShrink !== undefined ? { acceptShrink } : {}),
        signal: stopping.signal,
      });
      progress?.done();
      if (stopping.by !== undefined) {
        leaveNothing = created && !importSucceeded(outcome);
        io.stderr.write(
          `marquee import: stopped by ${stopping.by}: ${importSucceeded(outcome) ? 'what was imported before the stop is committed; the rest was rolled back' : 'nothing of this import was committed'}\n`,
        );
        return 1;
      }
      const verdict = importVerdict(outcome);
      if (values.json) io.stdout.write(`${jsonOf(outcome)}\n`);
      else io.stdout.write(`${describeOutcome(outcome).join('\n')}\n`);
      leaveNothing = created && !importSucceeded(outcome);
      if (leaveNothing && !values.json) io.stdout.write(`nothing was imported: ${db} was not created\n`);
      if (!values.json) io.stdout.write(`${verdict.line}\n`);
      return verdict.code;
    } finally {
      store.close();
      if (leaveNothing) removeStoreFiles(db);
    }
  },
};
