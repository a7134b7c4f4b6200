/**
 * Hosted mode's layer above the store: one store per source set (its own SQLite file in the
 * hosted folder), a registry of the sets, a bounded import queue, refresh on use, least-recently
 * used eviction by count and by disk, and an add-on per set built lazily and cached (bounded).
 * The store API is untouched: a set's store is an ordinary store that holds one user's sources.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Addon, type AddonPart, type ConfigCodec, composeAddon } from '../addon/index.js';
import { MarqueeError } from '../errors.js';
import { createLibraryPart } from '../library/index.js';
import { createLiveTvPart, type SourceState } from '../livetv/index.js';
import { createRateLimiter, type RequestHandler } from '../server/index.js';
import { copiesDir, openStore, type Store } from '../store/index.js';
import type { SetImportOptions, SetImportResult, SetProgress } from './import.js';
import { importInWorker } from './import-worker.js';
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
  /** Folder of the sets' stores and the registry (created when missing). */
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
  /** A set older than this is re-imported when used (its data served meanwhile); 0 never. Default 6 h. */
  readonly refreshMs?: number;
  /** Imports one set (one token) may start per minute. Default 4. */
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
  readonly log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  readonly now?: () => number;
}

export interface SetUse {
  readonly key: string;
  /** True when the set has data to serve now. */
  readonly ready: boolean;
  /** The import running for it (first import or refresh), if any. */
  readonly importing?: Promise<SetImportResult>;
  /** Why no import could start for a set without data (rate limit, full queue). */
  readonly refused?: MarqueeError;
}

export interface HostedService {
  readonly dir: string;
  readonly manifest: HostedManifestBase;
  readonly codec: ConfigCodec;
  /** The key that names the set of `sources`. */
  keyOf(sources: HostedSources): string;
  /** Note a use of `sources`: starts their import when they have none, or a refresh when due. */
  use(sources: HostedSources, options?: { limitKey?: string }): SetUse;
  /** The request handler of a set that has data. */
  handler(key: string): RequestHandler;
  /** Where the running import of a set is. */
  progress(key: string): SetProgress | undefined;
  record(key: string): SetRecord | undefined;
  list(): SetRecord[];
  /** Wait for running imports (for tests and shutdown), then write the registry and close the stores. */
  close(): Promise<void>;
}

const MiB = 1_048_576;

interface Job {
  readonly key: string;
  readonly sources: HostedSources;
  readonly promise: Promise<SetImportResult>;
  progress?: SetProgress;
  start?: () => void;
}

interface OpenSet {
  readonly store: Store;
  addon: Addon;
  readonly handler: RequestHandler;
}

/** Sizes on disk of a set: its store file, WAL and shared memory, and its source copies. */
function sizeOf(path: string): number {
  try {
    const s = statSync(path);
    if (!s.isDirectory()) return s.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

/**
 * @example const hosted = createHostedService({ dir: 'hosted', manifest, codec, handlerFor: (a) => createRequestHandler(a) })
 */
export function createHostedService(options: HostedOptions): HostedService {
  const dir = options.dir;
  // The sets' files hold what users' sources served (stream URLs may carry their tokens): private.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const registry: Registry = openRegistry(dir);
  const concurrency = Math.max(1, options.concurrentImports ?? 2);
  const maxQueued = options.maxQueued ?? 1_000;
  const maxSets = Math.max(1, options.maxSourceSets ?? 500);
  const budget = options.diskBudgetBytes ?? 2_048 * MiB;
  const refreshMs = options.refreshMs ?? 6 * 3_600_000;
  const maxOpen = Math.max(1, options.maxOpenSets ?? 32);
  const limiter = createRateLimiter({
    perMinute: options.importsPerMinute ?? 4,
    burst: Math.max(1, Math.ceil((options.importsPerMinute ?? 4) / 2)),
  });
  const runImport = options.runImport ?? importInWorker;
  const jobs = new Map<string, Job>();
  const waiting: Job[] = [];
  let active = 0;
  const open = new Map<string, OpenSet>();
  /** Validators of each set's last good import, for "changed since?" (memory only: they name URLs). */
  const previous = new Map<string, SourceState>();

  const fileOf = (key: string) => join(dir, `${key}.db`);
  const hasData = (record: SetRecord | undefined) => record?.importedAt !== undefined && sizeOf(fileOf(record.key)) > 0;

  function buildAddon(store: Store): Addon {
    const parts: AddonPart[] = [];
    // Streams are named after the add-on, as the client lists them under its name.
    const live = { streamName: options.manifest.name };
    if (store.counts().channels > 0) parts.push(createLiveTvPart(store, live));
    if (store.libraryCounts().items > 0) parts.push(createLibraryPart(store));
    if (parts.length === 0) parts.push(createLiveTvPart(store, live));
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

  function evict(keep: string): void {
    const sets = registry.all().sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    let count = sets.length;
    let bytes = sets.reduce((sum, s) => sum + (s.bytes ?? 0), 0);
    for (const s of sets) {
      if (count <= maxSets && bytes <= budget) break;
      if (s.key === keep || jobs.has(s.key)) continue;
      // Requests in flight may still read it (its unlinked file stays readable until closed).
      closeSet(s.key, 30_000);
      for (const suffix of ['', '-wal', '-shm']) rmSync(fileOf(s.key) + suffix, { force: true });
      rmSync(copiesDir(fileOf(s.key)), { recursive: true, force: true });
      registry.remove(s.key);
      previous.delete(s.key);
      count--;
      bytes -= s.bytes ?? 0;
      log('info', 'evicted a source set (least recently used)', { set: s.key, bytes: s.bytes ?? 0 });
    }
  }

  function pump(): void {
    while (active < concurrency && waiting.length > 0) {
      const job = waiting.shift()!;
      active++;
      job.start!();
    }
  }

  function startImport(key: string, sources: HostedSources): Job {
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
        runImport(fileOf(key), sources, {
          ...options.sourceOptions,
          ...(prior ? { previous: prior } : {}),
          onProgress: (p) => {
            job.progress = p;
          },
        })
          .then((result) => {
            finish(key, result, now() - started);
            resolve(result);
          }, reject)
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
      }
      log('error', 'a source set import failed', { set: key, code: (error as { code?: string }).code });
    });
    const job: Job = { key, sources, promise, start };
    jobs.set(key, job);
    waiting.push(job);
    pump();
    return job;

    function finish(k: string, result: SetImportResult, ms: number): void {
      const record = registry.touch(k, registry.get(k)?.lastUsedAt ?? now());
      const problem = result.problems[0];
      record.lastImport = {
        at: now(),
        outcome: result.outcome,
        ...(problem ? { problem: scrub(`${problem.field}: ${problem.message}`, sources) } : {}),
      };
      if (result.outcome === 'imported') {
        record.importedAt = now();
        record.counts = result.counts;
        if (result.state) previous.set(k, result.state);
      }
      record.bytes = sizeOf(fileOf(k)) + sizeOf(`${fileOf(k)}-wal`) + sizeOf(copiesDir(fileOf(k)));
      registry.changed();
      const entry = open.get(k);
      if (entry) entry.addon = buildAddon(entry.store);
      log(result.outcome === 'imported' ? 'info' : 'warn', `source set import ${result.outcome}`, {
        set: k,
        ms,
        ...result.counts,
        ...(problem ? { problem: `${problem.field} ${problem.code}` } : {}),
      });
      evict(k);
    }
  }

  return {
    dir,
    manifest: options.manifest,
    codec: options.codec,
    use(sources, useOptions = {}) {
      const key = sourceSetKey(sources, options.setKeySecret);
      const record = registry.touch(key, now());
      const ready = hasData(record);
      const running = jobs.get(key);
      if (running) return { key, ready, importing: running.promise };
      const due = !ready || (refreshMs > 0 && now() - (record.importedAt ?? 0) > refreshMs);
      if (!due) return { key, ready };
      // The limit is per token (its set) and, for the configure form, per client address too.
      const wait = Math.max(limiter.take(`set:${key}`), useOptions.limitKey ? limiter.take(useOptions.limitKey) : 0);
      if (wait > 0) {
        return {
          key,
          ready,
          refused: new MarqueeError('RATE_LIMITED', `too many imports of these sources: try again in ${wait} s`),
        };
      }
      try {
        return { key, ready, importing: startImport(key, sources).promise };
      } catch (error) {
        return { key, ready, refused: error as MarqueeError };
      }
    },
    keyOf: (sources) => sourceSetKey(sources, options.setKeySecret),
    handler: (key) => openSet(key).handler,
    progress: (key) => jobs.get(key)?.progress,
    record: (key) => registry.get(key),
    list: () => registry.all(),
    async close() {
      await Promise.allSettled([...jobs.values()].map((j) => j.promise));
      registry.close();
      for (const key of [...open.keys()]) closeSet(key);
    },
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
