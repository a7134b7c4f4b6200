/**
 * Hosted mode's layer above the store: one store per source set (its own SQLite file in the
 * hosted folder), a registry of the sets, a bounded import queue, refresh on use, least-recently
 * used eviction by count and by disk, and an add-on per set built lazily and cached (bounded).
 * The store API is untouched: a set's store is an ordinary store that holds one user's sources.
 *
 * What a request that is refused, or an import that fails, leaves behind: nothing. A set is
 * recorded once its first import succeeded; until then it is a job in memory and a file that is
 * deleted when the import fails. The registry never holds more than `maxSourceSets` sets, and
 * room is made only by evicting successful sets nobody used for `minKeepMinutes`.
 */
import { type Addon, type AddonPart, type ConfigCodec, composeAddon } from '../addon/index.js';
import { MarqueeError } from '../errors.js';
import { createLibraryPart } from '../library/index.js';
import { createLiveTvPart, type SourceState } from '../livetv/index.js';
import { createRateLimiter, type RequestHandler } from '../server/index.js';
import { openStore, type Store } from '../store/index.js';
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
import type { SetImportOptions, SetImportResult, SetProgress } from './import.js';
import { importInWorker } from './import-worker.js';
import { createRefusalLog, type HostedLog } from './refusals.js';
import { openRegistry, type Registry, type SetRecord } from './registry.js';
import { HOSTED_FIELDS, type HostedSources, sourceSetKey } from './sources.js';

export interface HostedManifestBase {
  readonly id: string;
  readonly version: string;
  readonly name: string;
  readonly description: string;
  readonly logo?: string;
  readonly background?: string;
  readonly contactEmail?: string;
}

export interface HostedOptions {
  /** Folder of the sets' stores and the registry (created when missing, made private when not). */
  readonly dir: string;
  readonly manifest: HostedManifestBase;
  /** Encrypts the users' sources into their install links. */
  readonly codec: ConfigCodec;
  /** Keys the hash that names each set (`setKeySecret(ring)`); without it, a plain hash. */
  readonly setKeySecret?: Uint8Array;
  /** Imports running at once; the rest wait in a queue. Default 2. */
  readonly concurrentImports?: number;
  /** Imports waiting at most; past it a new set is refused (busy). Default 1000. */
  readonly maxQueued?: number;
  /** Sets kept; the least recently used beyond it are deleted. Default 500. */
  readonly maxSourceSets?: number;
  /** Bytes the sets may use on disk; the least recently used beyond it are deleted. Default 2 GiB. */
  readonly diskBudgetBytes?: number;
  /** A set used this recently is never evicted to make room for another. Default 60 minutes. */
  readonly minKeepMs?: number;
  /** A set older than this is re-imported when used (its data served meanwhile); 0 never. Default 6 h. */
  readonly refreshMs?: number;
  /** Imports one set (one token), or one address through the configure form, may start per minute. Default 4. */
  readonly importsPerMinute?: number;
  /** Sets whose store and add-on stay open. Default 32. */
  readonly maxOpenSets?: number;
  /** Read limits and the private-address rule of every user source. */
  readonly sourceOptions?: Pick<SetImportOptions, 'allowPrivate' | 'timeoutMs' | 'maxBytes'>;
  /** How a set is imported; default in a worker thread (in this thread from the TypeScript sources). */
  readonly runImport?: (file: string, sources: HostedSources, options: SetImportOptions) => Promise<SetImportResult>;
  /** Wraps a set's add-on into the handler that answers its requests. */
  readonly handlerFor: (addon: () => Addon) => RequestHandler;
  /** Log lines: never URLs nor credentials, only set keys, counts and scrubbed problems. */
  readonly log?: HostedLog;
  /** The window over which refused requests are counted into one log line. Default 60 s. */
  readonly refusalLogMs?: number;
  readonly now?: () => number;
}

export interface SetUse {
  readonly key: string;
  /** True when the set has data to serve now. */
  readonly ready: boolean;
  /** The import running for it (first import or refresh), if any. */
  readonly importing?: Promise<SetImportResult>;
  /** Why no import could start for a set without data (rate limit, full queue, no room). */
  readonly refused?: MarqueeError;
}

export interface UseOptions {
  /** The configure form's client: imports are limited per address too (`addr:<address>`). */
  readonly limitKey?: string;
  /**
   * The first import must be clean to be kept: a source that failed (a guide answering 404)
   * refuses the whole set, as the configure form refuses it. Without it (an install link's
   * request), a set that serves something is kept.
   */
  readonly strict?: boolean;
}

export interface HostedService {
  readonly dir: string;
  readonly manifest: HostedManifestBase;
  readonly codec: ConfigCodec;
  /** The key that names the set of `sources`. */
  keyOf(sources: HostedSources): string;
  /** Note a use of `sources`: starts their import when they have none, or a refresh when due. */
  use(sources: HostedSources, options?: UseOptions): SetUse;
  /** The request handler of a set that has data. */
  handler(key: string): RequestHandler;
  /** Where the running import of a set is. */
  progress(key: string): SetProgress | undefined;
  record(key: string): SetRecord | undefined;
  list(): SetRecord[];
  /** Counts a refused request, logged with the others once a minute. */
  refused(reason: string): void;
  /** Wait for running imports (for tests and shutdown), then write the registry and close the stores. */
  close(): Promise<void>;
}

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

interface OpenSet {
  readonly store: Store;
  addon: Addon;
  readonly handler: RequestHandler;
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
  const budget = options.diskBudgetBytes ?? 2_048 * MiB;
  const minKeepMs = options.minKeepMs ?? 60 * 60_000;
  const refreshMs = options.refreshMs ?? 6 * 3_600_000;
  const maxOpen = Math.max(1, options.maxOpenSets ?? 32);
  const perMinute = options.importsPerMinute ?? 4;
  const limiter = createRateLimiter({ perMinute, burst: Math.max(1, Math.ceil(perMinute / 2)) });
  const refusals = createRefusalLog(log, options.refusalLogMs ?? 60_000, now);
  const runImport = options.runImport ?? importInWorker;
  const jobs = new Map<string, Job>();
  const waiting: Job[] = [];
  let active = 0;
  const open = new Map<string, OpenSet>();
  /** Validators of each set's last good import, for "changed since?" (memory only: they name URLs). */
  const previous = new Map<string, SourceState>();

  const fileOf = (key: string) => setFile(dir, key);
  const hasData = (record: SetRecord | undefined) => record?.importedAt !== undefined && sizeOf(fileOf(record.key)) > 0;

  function buildAddon(store: Store): Addon {
    const parts: AddonPart[] = [];
    if (store.counts().channels > 0) parts.push(createLiveTvPart(store));
    if (store.libraryCounts().items > 0) parts.push(createLibraryPart(store));
    if (parts.length === 0) parts.push(createLiveTvPart(store));
    return composeAddon({ ...options.manifest, config: HOSTED_FIELDS, behaviorHints: { configurable: true } }, parts, {
      configCodec: options.codec,
      dataVersion: store.dataVersion,
      validateResponses: true,
      validateRawJson: false,
    });
  }

  function openSet(key: string): OpenSet {
    let entry = open.get(key);
    if (entry) {
      open.delete(key);
      open.set(key, entry);
      return entry;
    }
    // Many stores are open at once: a small page cache each. Their files stay memory-mapped
    // (the store's default): guide pages came 1.7x faster than without the map in bench/hosted.js;
    // mapped pages are the OS's reclaimable file cache, though counted in the RSS.
    const store = openStore(fileOf(key), { cacheKiB: 4 * 1024 });
    const made: { addon: Addon } = { addon: buildAddon(store) };
    entry = { store, addon: made.addon, handler: options.handlerFor(() => (entry as OpenSet).addon) };
    open.set(key, entry);
    while (open.size > maxOpen) {
      const [oldKey, oldest] = open.entries().next().value!;
      open.delete(oldKey);
      // Requests in flight may still read it: close a little later.
      setTimeout(() => oldest.store.close(), 30_000).unref();
    }
    return entry;
  }

  function closeSet(key: string, delayMs = 0): void {
    const entry = open.get(key);
    if (!entry) return;
    open.delete(key);
    if (delayMs > 0) setTimeout(() => entry.store.close(), delayMs).unref();
    else entry.store.close();
  }

  /** Sets that may be evicted now, least recently used first: not `keep`, not importing, not used within minKeep. */
  function evictable(keep: string): SetRecord[] {
    const cutoff = now() - minKeepMs;
    return registry
      .all()
      .filter((s) => s.key !== keep && !jobs.has(s.key) && s.lastUsedAt <= cutoff)
      .sort((a, b) => a.lastUsedAt - b.lastUsedAt);
  }

  function evictSet(s: SetRecord, why: string): void {
    // Requests in flight may still read it (its unlinked file stays readable until closed).
    closeSet(s.key, 30_000);
    removeSet(dir, s.key);
    registry.remove(s.key);
    previous.delete(s.key);
    log('info', `evicted a source set (least recently used, ${why})`, { set: s.key, bytes: s.bytes ?? 0 });
  }

  /**
   * Evicts what may be evicted until `count` sets fit maxSourceSets and `bytes` the disk budget;
   * true when they fit.
   */
  function makeRoom(keep: string, count: number, bytes: number): boolean {
    for (const s of evictable(keep)) {
      if (count <= maxSets && bytes <= budget) break;
      evictSet(s, count > maxSets ? 'maxSourceSets' : 'diskBudgetMegabytes');
      count--;
      bytes -= s.bytes ?? 0;
    }
    return count <= maxSets && bytes <= budget;
  }

  const diskUse = () => registry.all().reduce((sum, s) => sum + (s.bytes ?? 0), 0);

  /** Could a new set be recorded now (evicting what may be evicted)? Nothing is evicted to answer. */
  function roomForNew(key: string): boolean {
    return registry.size < maxSets || evictable(key).length > 0;
  }

  function pump(): void {
    while (active < concurrency && waiting.length > 0) {
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
          if (!registry.get(key)) createPrivateFile(fileOf(key));
          created();
        })
          .then(() =>
            runImport(fileOf(key), sources, {
              ...options.sourceOptions,
              ...(prior ? { previous: prior } : {}),
              onProgress: (p) => {
                job.progress = p;
              },
            }),
          )
          .then((result) => resolve(finish(job, result, now() - started)), reject)
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
      if (record) {
        record.lastImport = { at: now(), outcome: 'failed', problem: scrub(error.message, sources) };
        registry.changed();
      } else forget(key);
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
    closeSet(key);
    removeSet(dir, key);
    previous.delete(key);
  }

  function finish(job: Job, result: SetImportResult, ms: number): SetImportResult {
    const k = job.key;
    const problem = result.problems[0];
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
      log(
        'warn',
        `source set import ${result.outcome === 'imported' ? 'refused (a source failed)' : 'failed'}`,
        fields,
      );
      return result;
    }
    if (!record) {
      const bytes = setBytes(dir, k);
      if (!makeRoom(k, registry.size + 1, diskUse() + bytes)) {
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
    const entry = open.get(k);
    if (entry) entry.addon = buildAddon(entry.store);
    log(result.outcome === 'imported' ? 'info' : 'warn', `source set import ${result.outcome}`, fields);
    // A refresh that grew past the disk budget makes room too, though it is kept either way.
    makeRoom(k, registry.size, diskUse());
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
      if (!record && !roomForNew(key)) {
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
    handler: (key) => openSet(key).handler,
    progress: (key) => jobs.get(key)?.progress,
    record: (key) => registry.get(key),
    list: () => registry.all(),
    refused: (reason) => refusals.note(reason),
    async close() {
      await Promise.allSettled([...jobs.values()].map((j) => j.promise));
      refusals.flush();
      registry.close();
      for (const key of [...open.keys()]) closeSet(key);
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
