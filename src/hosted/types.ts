/** The options and the surface of hosted mode's service (service.ts). */
import type { Addon, ConfigCodec } from '../addon/index.js';
import type { MarqueeError } from '../errors.js';
import type { StreamRelay } from '../livetv/index.js';
import type { RequestHandler } from '../server/index.js';
import type { Store } from '../store/index.js';
import type { SetImportOptions, SetImportResult, SetProgress } from './import.js';
import type { HostedLog } from './refusals.js';
import type { SetRecord } from './registry.js';
import type { HostedSources } from './sources.js';

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
  /** Bytes of an answer built from a set's store, at most (`addon.maxAnswerBytes`); default the parts'. */
  readonly maxAnswerBytes?: number;
  /** Read limits and the private-address rule of every user source. */
  readonly sourceOptions?: Pick<SetImportOptions, 'allowPrivate' | 'timeoutMs' | 'maxBytes' | 'limits'>;
  /** How a set is imported; default in a worker thread (in this thread from the TypeScript sources). */
  readonly runImport?: (file: string, sources: HostedSources, options: SetImportOptions) => Promise<SetImportResult>;
  /** Wraps a set's add-on into the handler that answers its requests. */
  readonly handlerFor: (addon: () => Addon) => RequestHandler;
  /** The relay's links for a set's stream answers (`hosted.relay`), when the relay is on. */
  readonly relayFor?: (key: string) => StreamRelay | undefined;
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
  /** The store of a set that has data (opened when it is not), or undefined: for the relay's lookups. */
  store(key: string): Store | undefined;
  /** Where the running import of a set is. */
  progress(key: string): SetProgress | undefined;
  /**
   * Why the first import of the set `key` was refused, in the last 10 minutes (a source failed,
   * the import failed), while the set is neither recorded nor being imported again.
   */
  refusal(key: string): { readonly code: string; readonly message: string } | undefined;
  record(key: string): SetRecord | undefined;
  list(): SetRecord[];
  /** Counts a refused request, logged with the others once a minute. */
  refused(reason: string): void;
  /**
   * Wait for running imports (for tests and shutdown), then write the registry and close the stores.
   * `stopImports` (a server stopping): running imports are aborted and queued ones end unstarted.
   */
  close(options?: { readonly stopImports?: boolean }): Promise<void>;
}
