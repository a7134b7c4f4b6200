/**
 * Refreshes in `marquee serve`: every `refresh.intervalHours` (default 6; 0 turns them off) the
 * configured sources are imported again in a worker thread, never at the same time as a health
 * pass. Each refresh asks the sources "changed since?" with what the last good import learnt
 * (the live-TV source state, the library URLs' validators). Data imported earlier is refreshed
 * when it is due, not a whole interval after start.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoGuide } from '../demo/index.js';
import { MarqueeError } from '../errors.js';
import { createRefresher, type Refresher, type SourceState } from '../livetv/index.js';
import type { SourceValidators } from '../sources/input/index.js';
import type { Store } from '../store/index.js';
import type { ImportOutcome } from './app.js';
import { importInWorker } from './import-worker.js';
import type { createLogger } from './log.js';
import { describeOutcome, failedParts, keptSourceList } from './report.js';
import type { Settings } from './settings.js';

const DEFAULT_REFRESH_HOURS = 6;

/**
 * Start the refreshes; undefined when `refresh.intervalHours` is 0.
 * @example const refresher = startRefreshes({ db, settings, store, log, exclusive, demo: false, onRefreshed })
 */
export function startRefreshes(options: {
  readonly db: string;
  readonly settings: Settings;
  readonly store: Store;
  readonly log: ReturnType<typeof createLogger>;
  /** Runs `job` when no health pass runs, and keeps passes out meanwhile. */
  readonly exclusive: <T>(job: () => Promise<T>) => Promise<T>;
  /** The embedded demo is served: the first refresh is a whole interval away. */
  readonly demo: boolean;
  /** The demo's folder: its guide is generated again before each refresh (its days move on). */
  readonly demoDir?: string | undefined;
  /** What the import at start learnt, asked again by the first refresh. */
  readonly previous?: SourceState | undefined;
  readonly libraryValidators?: Readonly<Record<string, SourceValidators>> | undefined;
  /** After a refresh was logged: serve and warm what it wrote. */
  readonly onRefreshed: (outcome: ImportOutcome) => void;
}): Refresher | undefined {
  const { db, settings, store, log, exclusive, demo, demoDir } = options;
  let { previous, libraryValidators } = options;
  const hours = settings.refresh?.intervalHours ?? DEFAULT_REFRESH_HOURS;
  return hours > 0
    ? createRefresher({
        intervalMs: hours * 3_600_000,
        // Data imported earlier is refreshed when it is due, not a whole interval after start.
        firstDelayMs:
          demo || !store.lastImport()?.finishedAt
            ? hours * 3_600_000
            : Math.max(5_000, store.lastImport()!.finishedAt! + hours * 3_600_000 - Date.now()),
        run: (signal) =>
          exclusive(async () => {
            if (demoDir) writeFileSync(join(demoDir, 'demo.xml'), demoGuide(Date.now()));
            const outcome = await importInWorker(db, settings, {
              signal,
              ...(previous ? { previous } : {}),
              ...(libraryValidators ? { libraryValidators } : {}),
            });
            // Every part failing is a failed refresh: the refresher backs off and reports it.
            const failures = failedParts(outcome);
            const succeeded = [outcome.livetv, outcome.library, outcome.addonCatalogs].some(
              (r) => r !== undefined && !('error' in r),
            );
            if (failures.length > 0 && !succeeded) {
              throw new MarqueeError('IMPORT_FAILED', failures.map((f) => `${f.part}: ${f.message}`).join('; '));
            }
            return outcome;
          }),
        onResult: (outcome) => {
          for (const line of describeOutcome(outcome, { sources: false })) log.event(`refresh: ${line}`);
          // A source kept for longer than 3 refresh intervals needs the operator: `error`.
          for (const kept of keptSourceList(outcome)) {
            const long = Date.now() - kept.keptSince > 3 * hours * 3_600_000;
            if (long) log.error({ msg: `refresh: ${kept.message}` });
            else log.warn(`refresh: ${kept.message}`);
          }
          for (const f of failedParts(outcome)) {
            log.error({
              msg: `refresh of ${f.part} failed; its previous data is still served`,
              error: f.message,
            });
          }
          if (outcome.livetv && !('error' in outcome.livetv)) previous = outcome.livetv.state;
          if (outcome.library && !('error' in outcome.library)) libraryValidators = outcome.library.validators;
          options.onRefreshed(outcome);
        },
        onError: (error, info) =>
          log.error({
            msg: 'refresh failed; the previous data is still served',
            error: (error as Error).message,
            retryInMs: info.retryInMs,
          }),
      })
    : undefined;
}
