import { MarqueeError } from '../errors.js';
import type { SourceState } from '../livetv/index.js';
import { createRateLimiter } from '../server/index.js';
import { createCapacity } from './capacity.js';
import {
  createPrivateFile,
  privateDir,
  privateSet,
  removeSet,
  removeStrays,
  setBytes,
  setFile,
  sizeOf,
} from './files.js';
import type { SetImportResult, SetProgress } from './import.js';
import { importInWorker } from './import-worker.js';
import { createOpenSets } from './open-sets.js';
import { createRefusalLog } from './refusals.js';
import { createRefusedSets } from './refused-sets.js';
import { openRegistry, type Registry, type SetRecord } from './registry.js';
import { type HostedSources, sourceSetKey } from './sources.js';
import type { HostedOptions, HostedService, SetUse } from './types.js';

const MiB = 1_048_576;

interface Job {
  readonly key: string;
  readonly sources: HostedSources;
  readonly promise: Promise<SetImportResult>;
  /** True while no other request asked for this import (see UseOptions.strict). */
  strict: boolean;
  progress?: SetProgress;
  start?: () => void;
}

/**
 * @example const hosted = createHostedService({ dir: 'hosted', manifest, codec, handlerFor: (a) => createRequestHandler(a) })
 */
export function createHostedService(options: HostedOptions): HostedService {
  const dir = options.dir;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const wider = privateDir(dir);
  if (wider !== undefined) {
    log('warn', 'the hosted folder was readable by other users: made private (0700, its files 0600)', {
      dir,
      mode: wider.toString(8).padStart(4, '0'),
    });
  }
  const maxSets = Math.max(1, options.maxSourceSets ?? 500);
  const registry: Registry = openRegistry(dir, { maxSets });
  // Sets the registry does not hold have no owner: a first import cut short, an old registry's
  // refused sets, records beyond maxSourceSets.
  const strays = removeStrays(dir, (key) => registry.get(key) !== undefined);
  if (strays.length > 0) log('info', 'removed the files of unrecorded source sets', { sets: strays.length });
  registry.flush();
  const concurrency = Math.max(1, options.concurrentImports ?? 2);
  const maxQueued = options.maxQueued ?? 1_000;
  const refreshMs = options.refreshMs ?? 6 * 3_600_000;
  const perMinute = options.importsPerMinute ?? 4;
  const limiter = createRateLimiter({ perMinute, burst: Math.max(1, Math.ceil(perMinute / 2)) });
  const refusals = createRefusalLog(log, options.refusalLogMs ?? 60_000, now);
  const runImport = options.runImport ?? importInWorker;
  const jobs = new Map<string, Job>();
  const waiting: Job[] = [];
  let active = 0;
  const openSets = createOpenSets({
    manifest: options.manifest,
    codec: options.codec,
    maxOpen: Math.max(1, options.maxOpenSets ?? 32),
    fileOf: (key) => setFile(dir, key),
    handlerFor: options.handlerFor,
    ...(options.relayFor ? { relayFor: options.relayFor } : {}),
    ...(options.sourceOptions?.limits?.maxStreamsPerChannel !== undefined
      ? { maxStreamsPerChannel: options.sourceOptions.limits.maxStreamsPerChannel }
      : {}),
    ...(options.maxAnswerBytes !== undefined ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
  });
  const capacity = createCapacity({
    registry,
    maxSets,
    budget: options.diskBudgetBytes ?? 2_048 * MiB,
    minKeepMs: options.minKeepMs ?? 60 * 60_000,
    now,
    importing: (key) => jobs.has(key),
    evict: (record, why) => evictSet(record, why),
  });
  /** Validators of each set's last good import, for "changed since?" (memory only: they name URLs). */
  const previous = new Map<string, SourceState>();
  /** Why a first import was refused, for the configure page that watched it (refused-sets.ts). */
  const refusedSets = createRefusedSets(now);
  /** Aborted by close(): imports in progress stop (each rolls back) instead of holding the stop up. */
  const closing = new AbortController();

  const fileOf = (key: string) => setFile(dir, key);
  const hasData = (record: SetRecord | undefined) => record?.importedAt !== undefined && sizeOf(fileOf(record.key)) > 0;

  function evictSet(s: SetRecord, why: string): void {
    // Requests in flight may still read it (its unlinked file stays readable until closed).
    openSets.close(s.key, 30_000);
    removeSet(dir, s.key);
    registry.remove(s.key);
    previous.delete(s.key);
    log('info', `evicted a source set (least recently used, ${why})`, { set: s.key, bytes: s.bytes ?? 0 });
  }

  function pump(): void {
    while ((active < concurrency || closing.signal.aborted) && waiting.length > 0) {
      const job = waiting.shift()!;
      active++;
      job.start!();
    }
  }

  function startImport(key: string, sources: HostedSources, strict: boolean): Job {
    const existing = jobs.get(key);
    if (existing) return existing;
    if (waiting.length >= maxQueued)
      throw new MarqueeError('RATE_LIMITED', 'the server is busy importing: try again in a minute');
    let start!: () => void;
    const promise = new Promise<SetImportResult>((resolve, reject) => {
      start = () => {
        const started = now();
        log('info', 'importing a source set', { set: key });
        const prior = previous.get(key);
        new Promise<void>((created) => {
          if (closing.signal.aborted) throw new MarqueeError('IMPORT_FAILED', 'the server is stopping');
          createPrivateFile(fileOf(key));
          created();
        })
          .then(() =>
            runImport(fileOf(key), sources, {
              ...options.sourceOptions,
              ...(prior ? { previous: prior } : {}),
              signal: closing.signal,
              onProgress: (p) => {
                job.progress = p;
              },
            }),
          )
          .then((result) => finish(job, result, now() - started))
          .then(resolve, reject)
          .finally(() => {
            active--;
            jobs.delete(key);
            pump();
          });
      };
    });
    // Nobody may be waiting for a refresh: its failure is logged, never unhandled.
    promise.catch((error: Error) => {
      const record = registry.get(key);
      if (closing.signal.aborted) {
        // Stopped with the server: not the set's failure (its last good data stays served).
        if (!record) forget(key);
        log('info', 'a source set import was stopped: the server is stopping', { set: key });
        return;
      }
      if (record) {
        record.lastImport = { at: now(), outcome: 'failed', problem: scrub(error.message, sources) };
        registry.changed();
      } else {
        forget(key);
        refusedSets.note(key, { code: (error as { code?: string }).code ?? 'IMPORT_FAILED', message: error.message });
      }
      log('error', 'a source set import failed', { set: key, code: (error as { code?: string }).code });
    });
    const job: Job = { key, sources, promise, start, strict };
    jobs.set(key, job);
    waiting.push(job);
    pump();
    return job;
  }

  /** A set that was never recorded (its first import failed or was refused): its files go. */
  function forget(key: string): void {
    openSets.close(key);
    removeSet(dir, key);
    previous.delete(key);
  }

  function finish(job: Job, result: SetImportResult, ms: number): SetImportResult {
    const k = job.key;
    const problem = result.problems[0];
    if (closing.signal.aborted && problem !== undefined) {
      // Cut short by the server's stop: not the set's failure, and nothing new to record.
      if (!registry.get(k)) forget(k);
      log('info', 'a source set import was stopped: the server is stopping', { set: k });
      return result;
    }
    let record = registry.get(k);
    const kept = result.outcome === 'imported' && (record !== undefined || !job.strict || problem === undefined);
    const fields = {
      set: k,
      ms,
      ...result.counts,
      ...(problem ? { problem: `${problem.field} ${problem.code}` } : {}),
    };
    if (!record && !kept) {
      forget(k);
      const refusal = problem ?? {
        field: 'sources',
        code: 'IMPORT_FAILED',
        message: 'the sources could not be imported',
      };
      // Shown only to whoever holds these sources (the key is theirs): as the page said it first.
      refusedSets.note(k, { code: refusal.code, message: `${refusal.field}: ${refusal.message}` });
      log(
        'warn',
        `source set import ${result.outcome === 'imported' ? 'refused (a source failed)' : 'failed'}`,
        fields,
      );
      return result;
    }
    refusedSets.drop(k);
    if (!record) {
      const bytes = setBytes(dir, k);
      if (!capacity.makeRoom(k, registry.size + 1, capacity.diskUse() + bytes)) {
        forget(k);
        log('warn', 'source set not kept: no room (every set was used within hosted.minKeepMinutes)', fields);
        return noRoom(result);
      }
      record = { key: k, createdAt: now(), lastUsedAt: now() };
      registry.add(record);
    }
    record.lastImport = {
      at: now(),
      outcome: result.outcome,
      ...(problem ? { problem: scrub(`${problem.field}: ${problem.message}`, job.sources) } : {}),
    };
    if (result.outcome === 'imported') {
      record.importedAt = now();
      record.counts = result.counts;
      if (result.state) previous.set(k, result.state);
    }
    privateSet(dir, k);
    record.bytes = setBytes(dir, k);
    registry.changed();
    openSets.rebuild(k);
    log(result.outcome === 'imported' ? 'info' : 'warn', `source set import ${result.outcome}`, fields);
    // A refresh that grew past the disk budget makes room too, though it is kept either way.
    capacity.makeRoom(k, registry.size, capacity.diskUse());
    return result;
  }

  return {
    dir,
    manifest: options.manifest,
    codec: options.codec,
    use(sources, useOptions = {}) {
      const key = sourceSetKey(sources, options.setKeySecret);
      const record = registry.get(key);
      // A use of a recorded set; one that is not recorded (yet) leaves no trace.
      if (record) registry.use(key, now());
      const ready = hasData(record);
      const running = jobs.get(key);
      if (running) {
        // Someone else asks for it too: whatever it serves is kept for them.
        if (!useOptions.strict) running.strict = false;
        return { key, ready, importing: running.promise };
      }
      const due = !ready || (refreshMs > 0 && now() - (record?.importedAt ?? 0) > refreshMs);
      if (!due) return { key, ready };
      // The address first: what it asks beyond its limit does not spend the set's own.
      if (useOptions.limitKey !== undefined) {
        const wait = limiter.take(useOptions.limitKey);
        if (wait > 0)
          return refusal(
            key,
            ready,
            'RATE_LIMITED',
            `too many configurations from your address: try again in ${wait} s`,
          );
      }
      const wait = limiter.take(`set:${key}`);
      if (wait > 0)
        return refusal(key, ready, 'RATE_LIMITED', `too many imports of these sources: try again in ${wait} s`);
      if (!record && !capacity.roomForNew(key)) {
        return refusal(
          key,
          ready,
          'IMPORT_FAILED',
          'this server holds as many source sets as it may, all in use: try again later',
        );
      }
      try {
        return { key, ready, importing: startImport(key, sources, useOptions.strict === true).promise };
      } catch (error) {
        return { key, ready, refused: error as MarqueeError };
      }
    },
    keyOf: (sources) => sourceSetKey(sources, options.setKeySecret),
    handler: (key) => openSets.handler(key),
    store: (key) => (hasData(registry.get(key)) ? openSets.store(key) : undefined),
    progress: (key) => jobs.get(key)?.progress,
    refusal: (key) => (jobs.has(key) || registry.get(key) !== undefined ? undefined : refusedSets.get(key)),
    record: (key) => registry.get(key),
    list: () => registry.all(),
    refused: (reason) => refusals.note(reason),
    async close(closeOptions = {}) {
      // Stopping the server: running imports stop and roll back (a set's last good data stays),
      // queued ones end at once without starting.
      if (closeOptions.stopImports) {
        closing.abort();
        pump();
      }
      await Promise.allSettled([...jobs.values()].map((j) => j.promise));
      refusals.flush();
      registry.close();
      openSets.closeAll();
    },
  };
}

function refusal(key: string, ready: boolean, code: 'RATE_LIMITED' | 'IMPORT_FAILED', message: string): SetUse {
  return { key, ready, refused: new MarqueeError(code, message) };
}

/** A first import that succeeded but could not be kept: said as a problem of the whole set. */
function noRoom(result: SetImportResult): SetImportResult {
  return {
    outcome: 'failed',
    counts: result.counts,
    problems: [
      {
        field: 'sources',
        code: 'IMPORT_FAILED',
        message: 'this server holds as many source sets as it may, all in use: try again later',
      },
    ],
  };
}

/**
 * A message about a user's sources, fit for logs and `marquee status`: every URL and every
 * credential removed (the backends redact user info and secret-looking query values, but a
 * provider may put a token in a path).
 */
export function scrub(message: string, sources: HostedSources): string {
  let out = message.replace(/\bhttps?:\/\/[^\s;,)]+/gi, (url) => {
    try {
      return `${new URL(url).host.replace(/^.*@/, '')}/…`;
    } catch {
      return '…';
    }
  });
  for (const secret of [sources.xtreamPass, sources.xtreamUser]) {
    if (secret && secret.length >= 2) out = out.split(secret).join('***');
  }
  return out.slice(0, 300);
}
