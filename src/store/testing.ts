/**
 * Builders for store tests: records with defaults, a temp folder or a whole temp store per test,
 * and a snapshot of everything a live-TV store serves (to compare "before" and "after" exactly).
 * Not exported from index.ts, and not built into dist/ (it uses vitest's hooks).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Programme } from '../sources/records.js';
import type { ChannelInput } from './livetv/types.js';
import { DATA_VERSION_TTL_MS, openStore, type Store } from './store.js';

/** A fresh folder under the OS temp dir and a function that removes it. */
export function tempDir(prefix = 'marquee-store-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh store (`store.db` in its own temp folder) for each test of the calling file: opened
 * before each test and handed to `opened`, closed and removed after it. Hooks registered later
 * in the file run after the store is open.
 * @example let store: Store; useTempStore((s) => { store = s; });
 */
export function useTempStore(opened: (store: Store) => void): void {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let store: Store | undefined;
  beforeEach(() => {
    tmp = tempDir();
    store = openStore(join(tmp.dir, 'store.db'));
    opened(store);
  });
  afterEach(() => {
    store?.close();
    tmp?.remove();
  });
}

/** Epoch ms of an ISO time (`2030-01-01T23:30Z`). */
export const at = (iso: string): number => Date.parse(iso);

/** Waits out the window in which a store may still report the data version it last read (DATA_VERSION_TTL_MS). */
export const pastVersionWindow = (): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, DATA_VERSION_TTL_MS + 2));

/** A programme of guide channel `channelId` from `start` to `stop` (ISO or ms). */
export function programme(
  channelId: string,
  start: string | number,
  stop: string | number,
  title = `${channelId} ${start}`,
  more: Partial<Programme> = {},
): Programme {
  return {
    channelId,
    start: typeof start === 'number' ? start : at(start),
    stop: typeof stop === 'number' ? stop : at(stop),
    titles: [{ text: title }],
    subTitles: [],
    descriptions: [],
    categories: [],
    ratings: [],
    directors: [],
    actors: [],
    previouslyShown: false,
    isNew: false,
    line: 1,
    ...more,
  };
}

/** Channel number `n` (`mq-tv:c<n>`, sort n, one stream), showing guide key `g<n>` unless overridden. */
export function channel(n: number, more: Partial<ChannelInput> = {}): ChannelInput {
  return {
    id: `mq-tv:c${n}`,
    name: `Channel ${n}`,
    sort: n,
    guideKey: `g${n}`,
    streams: [{ url: `http://127.0.0.1/live/${n}.m3u8` }],
    ...more,
  };
}

/** Everything the live-TV part of `store` serves for the given days, for exact before/after comparisons. */
export function snapshot(store: Store, days: readonly string[]) {
  const channels = store.listChannels({ offset: 0, limit: 1000 });
  return {
    channels,
    count: store.countChannels(),
    groups: store.groups(),
    streams: channels.map((c) => store.getStreams(c.id)),
    days: days.map((day) => store.guideDay({ day, offset: 0, limit: 1000 })),
    hasProgrammes: store.hasProgrammes(),
    counts: store.counts(),
    dataVersion: store.dataVersion(),
  };
}
