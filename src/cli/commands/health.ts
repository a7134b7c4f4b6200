import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isMarqueeError } from '../../errors.js';
import { runHealthPass } from '../../livetv/index.js';
import { openStore } from '../../store/index.js';
import { type Command, EXIT } from '../command.js';
import { changeJson, describeHealthPass, healthPassOptions, MAX_LISTED_CHANGES, offlineLine } from '../health.js';
import { resolveSettings, STORE_OPTIONS } from '../resolve.js';
import { stopOnSignal } from '../shutdown.js';

export const healthCommand: Command = {
  name: 'health',
  summary: 'check which streams play, once, and record it (docs/health.md)',
  usage: 'marquee health [--json] [--allow-private-sources] [--db FILE] [--config FILE]',
  options: {
    ...STORE_OPTIONS,
    'allow-private-sources': {
      type: 'boolean',
      env: 'MARQUEE_ALLOW_PRIVATE_SOURCES',
      description: 'let checks reach streams on loopback and private addresses (a home network, tests)',
    },
    json: { type: 'boolean', description: 'print the pass as JSON (for scripts)' },
  },
  notes:
    'One pass over the streams of the sources in health.sources (default every playlist; an Xtream account only when listed),\n' +
    'health.concurrency at once, health.perHost per host, health.timeoutSeconds each; the results are recorded in the database.\n' +
    'Exit codes: 0 the pass ran and was recorded (dead streams are findings, not failures: see the counts), 1 the pass could\n' +
    'not run or be recorded (no streams, none from the sources checked, another writer held the database, this machine looks\n' +
    'offline, stopped by SIGINT/SIGTERM: nothing of the pass is recorded), 2 bad flags or configuration, 3 database unavailable.',
  stopsInOrder: true,
  async run(values, _positionals, io) {
    const { settings } = resolveSettings(values, io.cwd);
    const db = settings.db ?? resolve(io.cwd, 'marquee.db');
    if (!existsSync(db)) {
      io.stderr.write(`marquee health: ${db} does not exist: nothing was imported yet (run \`marquee import\`)\n`);
      return EXIT.unavailable;
    }
    const store = openStore(db);
    // SIGINT/SIGTERM stop the pass within 2 s; a pass records only at its end, so nothing of it is.
    const stopping = stopOnSignal(io, 'health');
    try {
      const options = healthPassOptions(settings, store);
      const tty = !values.json && io.stderr.isTTY === true;
      let shownAt = 0;
      const result = await runHealthPass(store, {
        ...options,
        signal: stopping.signal,
        onProgress: (done, total) => {
          // On a terminal, a line redrawn in place; elsewhere nothing until the report.
          if (!tty || (Date.now() - shownAt < 200 && done < total)) return;
          shownAt = Date.now();
          io.stderr.write(
            `\r\x1b[2Kchecked ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} streams`,
          );
          if (done === total) io.stderr.write('\n');
        },
      });
      const changed = result.offline ? [] : store.healthChanges(result.startedAt, MAX_LISTED_CHANGES);
      if (values.json) {
        const { changes: _changes, ...rest } = result;
        io.stdout.write(
          `${JSON.stringify(
            {
              ok: result.offline === undefined,
              ...rest,
              startedAt: new Date(result.startedAt).toISOString(),
              finishedAt: new Date(result.finishedAt).toISOString(),
              changedCount: result.changes.length,
              changed: changed.map(changeJson),
            },
            null,
            2,
          )}\n`,
        );
      } else {
        const lines = describeHealthPass(result, changed);
        // The offline verdict is the command's failure: said on stderr, after the counts.
        io.stdout.write(`${(result.offline ? lines.slice(0, -1) : lines).join('\n')}\n`);
      }
      if (result.offline) {
        io.stderr.write(`marquee health: ${offlineLine(result.offline)}\n`);
        return EXIT.failed;
      }
      return EXIT.ok;
    } catch (error) {
      if (!isMarqueeError(error, 'IMPORT_FAILED')) throw error;
      const message =
        stopping.by !== undefined
          ? `stopped by ${stopping.by}: nothing of this pass was recorded (every stream keeps the health of the last pass)`
          : error.message;
      if (values.json) io.stdout.write(`${JSON.stringify({ ok: false, error: message }, null, 2)}\n`);
      io.stderr.write(`marquee health: ${message}\n`);
      return EXIT.failed;
    } finally {
      store.close();
    }
  },
};
