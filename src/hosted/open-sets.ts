/**
 * The sets whose store and add-on are open, least recently used closed first (`maxOpenSets`):
 * each store keeps a small page cache and its file memory-mapped, so hundreds of sets on disk do
 * not mean hundreds of open stores.
 */
import { type Addon, type AddonPart, type ConfigCodec, composeAddon } from '../addon/index.js';
import { createLibraryPart } from '../library/index.js';
import { createLiveTvPart, type StreamRelay } from '../livetv/index.js';
import type { RequestHandler } from '../server/index.js';
import { openStore, type Store } from '../store/index.js';
import { HOSTED_FIELDS } from './sources.js';
import type { HostedManifestBase } from './types.js';

export interface OpenSets {
  /** The request handler of set `key`, its store opened when it is not. */
  handler(key: string): RequestHandler;
  /** The store of set `key`, opened when it is not (the relay looks its streams up). */
  store(key: string): Store;
  /** Builds the add-on of an open set again (its data changed). */
  rebuild(key: string): void;
  /** Closes the store of set `key` now, or after `delayMs` (requests in flight may still read it). */
  close(key: string, delayMs?: number): void;
  closeAll(): void;
}

export interface OpenSetsOptions {
  readonly manifest: HostedManifestBase;
  readonly codec: ConfigCodec;
  readonly maxOpen: number;
  readonly fileOf: (key: string) => string;
  readonly handlerFor: (addon: () => Addon) => RequestHandler;
  /** The relay's links for a set's stream answers (hosted.relay), when it is on. */
  readonly relayFor?: (key: string) => StreamRelay | undefined;
  /** Streams a stream answer holds at most (`livetv.maxStreamsPerChannel`); default the part's. */
  readonly maxStreamsPerChannel?: number;
  /** Bytes of an answer built from a set's store, at most (`addon.maxAnswerBytes`); default the parts'. */
  readonly maxAnswerBytes?: number;
}

interface OpenSet {
  readonly store: Store;
  addon: Addon;
  readonly handler: RequestHandler;
}

/** @example const sets = createOpenSets({ manifest, codec, maxOpen: 32, fileOf, handlerFor }); sets.handler(key)(request) */
export function createOpenSets(options: OpenSetsOptions): OpenSets {
  const open = new Map<string, OpenSet>();

  function buildAddon(store: Store, key: string): Addon {
    const parts: AddonPart[] = [];
    // Streams are named after the add-on, as the client lists them under its name.
    const bound = options.maxAnswerBytes !== undefined ? { maxAnswerBytes: options.maxAnswerBytes } : {};
    const relay = options.relayFor?.(key);
    const live = {
      streamName: options.manifest.name,
      ...(options.maxStreamsPerChannel !== undefined ? { maxStreamsPerChannel: options.maxStreamsPerChannel } : {}),
      ...(relay ? { relay } : {}),
      ...bound,
    };
    if (store.counts().channels > 0) parts.push(createLiveTvPart(store, live));
    if (store.libraryCounts().items > 0) parts.push(createLibraryPart(store, bound));
    if (parts.length === 0) parts.push(createLiveTvPart(store, live));
    return composeAddon({ ...options.manifest, config: HOSTED_FIELDS, behaviorHints: { configurable: true } }, parts, {
      configCodec: options.codec,
      dataVersion: store.dataVersion,
      validateResponses: true,
      validateRawJson: false,
    });
  }

  function close(key: string, delayMs = 0): void {
    const entry = open.get(key);
    if (!entry) return;
    open.delete(key);
    if (delayMs > 0) setTimeout(() => entry.store.close(), delayMs).unref();
    else entry.store.close();
  }

  function opened(key: string): OpenSet {
    let entry = open.get(key);
    if (entry) {
      open.delete(key);
      open.set(key, entry);
      return entry;
    }
    // Many stores are open at once: a small page cache each. Their files stay memory-mapped
    // (the store's default): guide pages came 1.7x faster than without the map in bench/hosted.js;
    // mapped pages are the OS's reclaimable file cache, though counted in the RSS.
    const store = openStore(options.fileOf(key), { cacheKiB: 4 * 1024 });
    const made: { addon: Addon } = { addon: buildAddon(store, key) };
    entry = { store, addon: made.addon, handler: options.handlerFor(() => (entry as OpenSet).addon) };
    open.set(key, entry);
    while (open.size > options.maxOpen) {
      const oldKey = open.keys().next().value!;
      close(oldKey, 30_000);
    }
    return entry;
  }

  return {
    handler: (key) => opened(key).handler,
    store: (key) => opened(key).store,
    rebuild(key) {
      const entry = open.get(key);
      if (entry) entry.addon = buildAddon(entry.store, key);
    },
    close,
    closeAll() {
      for (const key of [...open.keys()]) close(key);
    },
  };
}
