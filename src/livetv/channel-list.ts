/**
 * Pages of channels (and of guide rows) for a filter. The store answers one group and/or a name
 * search directly, with index scans; a user's `groups` setting (several groups at once) is served
 * from an in-memory list of every channel in catalog order, read once per data version (the live-TV
 * part reads the programmes of such a page's channels per channel).
 */
import type { ChannelRow, GuideDayRawChannel, Store } from '../store/index.js';
import { normalizeName } from '../store/index.js';
import { CHANNEL_HEAD } from './guide-json.js';
import { DEFAULT_FAILURES_BEFORE_DEAD, type HealthServing } from './health-view.js';

export interface ChannelFilter {
  /** One group (the catalog's genre). */
  readonly group?: string;
  /** Several groups (the user's `groups` setting); ignored when `group` is set. */
  readonly groups?: readonly string[];
  readonly search?: string;
  /** Channels left out (`health.hideDeadChannels`). */
  readonly except?: HiddenChannels;
}

/** Channels left out of lists, for one data version: their ids, and their row ids as the JSON the store takes. */
export interface HiddenChannels {
  readonly ids: ReadonlySet<string>;
  readonly json: string;
}

/**
 * The channels `health.hideDeadChannels` leaves out (every stream offline), read once per data
 * version (an import or a health pass changes it); undefined when none is, or the setting is off.
 * @example const hidden = createHiddenChannels(store, { hideDeadChannels: true }); list.page({ except: hidden() }, 0, 100)
 */
export function createHiddenChannels(store: Store, health: HealthServing): () => HiddenChannels | undefined {
  let cached: { version: number; hidden: HiddenChannels | undefined } | undefined;
  const limit = Math.max(1, health.failuresBeforeDead ?? DEFAULT_FAILURES_BEFORE_DEAD);
  return () => {
    if (!health.hideDeadChannels) return undefined;
    const version = store.dataVersion();
    if (cached?.version !== version) {
      const dead = store.deadChannels(limit);
      cached = {
        version,
        hidden: dead.ids.length > 0 ? { ids: new Set(dead.ids), json: JSON.stringify(dead.rids) } : undefined,
      };
    }
    return cached.hidden;
  };
}

/** The user's `groups` setting applies (no single genre asked): served from the in-memory list. */
const severalGroups = (filter: ChannelFilter): boolean => filter.group === undefined && filter.groups !== undefined;

/** Rows fetched from the store per call when loading the whole channel list. */
const LOAD_CHUNK = 1000;

/** Channel pages over `store`. @example createChannelList(store).page({ group: 'News' }, 0, 100) */
export function createChannelList(store: Store) {
  let cached: { version: number; rows: ChannelRow[] } | undefined;

  function allChannels(): ChannelRow[] {
    const version = store.dataVersion();
    if (cached?.version !== version) {
      const rows: ChannelRow[] = [];
      for (;;) {
        const chunk = store.listChannels({ offset: rows.length, limit: LOAD_CHUNK });
        rows.push(...chunk);
        if (chunk.length < LOAD_CHUNK) break;
      }
      cached = { version, rows };
    }
    return cached.rows;
  }

  function filtered(filter: ChannelFilter, skip: number, size: number): ChannelRow[] {
    const groups = new Set(filter.groups);
    const needle = filter.search === undefined ? '' : normalizeName(filter.search);
    const out: ChannelRow[] = [];
    let seen = 0;
    for (const channel of allChannels()) {
      if (!groups.has(channel.group ?? '')) continue;
      if (filter.except?.ids.has(channel.id)) continue;
      if (needle !== '' && !normalizeName(channel.name).includes(needle)) continue;
      if (seen++ < skip) continue;
      out.push(channel);
      if (out.length >= size) break;
    }
    return out;
  }

  return {
    /** Channels `skip`..`skip + size` of the filter, in catalog order. */
    page(filter: ChannelFilter, skip: number, size: number): ChannelRow[] {
      if (severalGroups(filter)) return filtered(filter, skip, size);
      return store.listChannels({
        offset: skip,
        limit: size,
        ...(filter.group !== undefined ? { group: filter.group } : {}),
        ...(filter.search !== undefined ? { search: filter.search } : {}),
        ...(filter.except !== undefined ? { except: filter.except.json } : {}),
      });
    },

    /**
     * The guide page as the store's raw entries when the store can answer the filter directly (no
     * name search, at most one group); undefined otherwise (the part reads such a page channel by channel).
     */
    guidePageRaw(filter: ChannelFilter, day: string, skip: number, size: number): GuideDayRawChannel[] | undefined {
      if (filter.search !== undefined || severalGroups(filter)) return undefined;
      return store.guideDayRaw({
        day,
        headFormat: CHANNEL_HEAD.format,
        offset: skip,
        limit: size,
        ...(filter.group !== undefined ? { group: filter.group } : {}),
        ...(filter.except !== undefined ? { except: filter.except.json } : {}),
      });
    },
  };
}
