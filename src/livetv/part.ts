/**
 * The live-TV backend as an add-on part: one `tv` channel catalog (a guide when real programmes
 * exist), channel metas and streams, all read from the store per request. The manifest part
 * (genres, `date`, `epgProvider`) is computed from the store when the part is created, so the
 * caller creates a new part (and composed add-on) after each import; the handlers always read
 * the store's current data (an import commits atomically, so a request never sees half of one).
 */
import type { AddonPart, CatalogRequest, ItemRequest } from '../addon/index.js';
import { answerBytes, guideDayWindow, itemsWithin } from '../addon/index.js';
import type { Catalog, Extra, Meta } from '../protocol/index.js';
import { type ChannelRow, type GuideDayChannel, programmeRow, type Store } from '../store/index.js';
import { metaHeadQuick, previewExact, previewQuick, programmesWithin, videoQuick } from './answer-size.js';
import { createCatchupStreams } from './catchup-streams.js';
import { type ChannelFilter, createChannelList, createHiddenChannels } from './channel-list.js';
import { DEFAULT_MAX_STREAMS_PER_CHANNEL } from './channels.js';
import { createGuidePageWriter } from './guide-json.js';
import type { HealthServing } from './health-view.js';
import { CHANNEL_PREFIX } from './ids.js';
import { channelMeta, channelPreview, channelStreams } from './metas.js';
import type { StreamRelay } from './stream-relay.js';
import type { PlaceholderOptions } from './types.js';
import { placeholderVideos, programmeVideo, resolvePlaceholders } from './videos.js';

const HOUR = 3_600_000;
const PAGE = 100;
/** A programme's video id: `{channelId}:epg:{start ISO}` (videos.ts videoId). */
const PROGRAMME_ID = /^(.+):epg:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z)$/;
/** Programme-bearing answers: the guide refreshes every 15 minutes, programmes change on import. */
export const GUIDE_CACHE = { cacheMaxAge: 300, staleRevalidate: 1800, staleError: 604800 } as const;
/** Channel lists and streams change only when an import commits (every few hours). */
export const LIST_CACHE = { cacheMaxAge: 3600, staleRevalidate: 21600, staleError: 604800 } as const;
/** Stream answers with relay links on the address the request came by: not kept by the server. */
const RELAYED_CACHE = { cacheMaxAge: 0 } as const;

export interface LiveTvPartOptions {
  /** Catalog id. Default `mq-tv-channels`. */
  readonly catalogId?: string;
  /** Catalog name shown in the client. Default `Live TV`. */
  readonly catalogName?: string;
  /** `name` of every stream (the client shows it as the source). Default `Marquee`. */
  readonly streamName?: string;
  /** Generated blocks for channels without programmes in the asked window. Default off. */
  readonly placeholders?: PlaceholderOptions;
  /** Hours of programmes before / after now on a channel's detail page. Default 6 / 24. */
  readonly metaHoursBack?: number;
  readonly metaHoursAhead?: number;
  /** What stream health changes in what is served (health-view.ts); the checks ran in a pass. */
  readonly health?: HealthServing;
  /** Relay links, listed first in stream answers (src/relay makes them; stream-relay.ts). */
  readonly relay?: StreamRelay;
  /**
   * Streams a stream answer holds at most (`livetv.maxStreamsPerChannel`, default 50): the import
   * stores no more, and a store written before the cap existed is bounded here, when read.
   */
  readonly maxStreamsPerChannel?: number;
  /**
   * Bytes of an answer built from the store, at most (`addon.maxAnswerBytes`, default 4 MiB): a
   * catalog or guide page ends before the channel that would pass it (the client asks the next
   * page from there), a channel meta, or a guide page's only channel, keeps its earliest
   * programmes that fit.
   */
  readonly maxAnswerBytes?: number;
  /** The clock, for tests. */
  readonly now?: () => number;
}

/**
 * The live-TV part of an add-on, over `store`. Recreate it after each import so the manifest
 * (genres, guide) follows the data.
 * @example composeAddon(base, [createLiveTvPart(store, { placeholders: { enabled: true } })], { dataVersion: store.dataVersion })
 */
export function createLiveTvPart(store: Store, options: LiveTvPartOptions = {}): AddonPart {
  const catalogId = options.catalogId ?? 'mq-tv-channels';
  const streamName = options.streamName ?? 'Marquee';
  const placeholders = resolvePlaceholders(options.placeholders);
  const now = options.now ?? Date.now;
  const back = (options.metaHoursBack ?? 6) * HOUR;
  const ahead = (options.metaHoursAhead ?? 24) * HOUR;
  const health = options.health ?? {};
  const maxStreams = options.maxStreamsPerChannel ?? DEFAULT_MAX_STREAMS_PER_CHANNEL;
  const list = createChannelList(store);
  const hidden = createHiddenChannels(store, health);
  const catchup = createCatchupStreams(streamName);
  const maxBytes = answerBytes(options.maxAnswerBytes);
  const guidePages = createGuidePageWriter(placeholders, catchup, maxBytes);

  const groups = store.groups().map((g) => g.name);
  // Placeholders never count: only stored programmes (real times from a guide) make a guide.
  const epgProvider = store.hasProgrammes();
  const extra: Extra[] = [];
  if (groups.length > 0) extra.push({ name: 'genre', options: groups });
  extra.push({ name: 'search' }, { name: 'skip' });
  if (epgProvider) extra.push({ name: 'date' });
  const catalog: Catalog = {
    type: 'tv',
    id: catalogId,
    name: options.catalogName ?? 'Live TV',
    ...(groups.length > 0 ? { genres: groups } : {}),
    extra,
  };

  function filterOf(request: CatalogRequest): ChannelFilter | undefined {
    const allowed = configGroups(request.config);
    const genre = request.extra.genre;
    if (allowed !== undefined && genre !== undefined && !allowed.includes(genre)) return undefined;
    const except = hidden();
    return {
      ...(genre !== undefined ? { group: genre } : allowed !== undefined ? { groups: allowed } : {}),
      ...(request.extra.search !== undefined ? { search: request.extra.search } : {}),
      ...(except !== undefined ? { except } : {}),
    };
  }

  /**
   * `channel` with its programmes over [from, to] that fit in `room` bytes (its earliest ones),
   * the bytes it takes (an upper estimate) and whether every programme fit; undefined when not
   * even the meta's own members do.
   */
  function boundedRow(channel: ChannelRow, from: number, to: number, t: number, room: number) {
    const head = metaHeadQuick(channel);
    if (head > room) return undefined;
    const stored = store.storedProgrammesAround(channel.id, from, to);
    const each = videoQuick(channel, catchup, t);
    const { kept, bytes } = programmesWithin(stored, room - head, each);
    // Placeholder blocks stand in for no programme: a day's are a few dozen small videos.
    const blocks = stored.length === 0 && placeholders.enabled ? Math.ceil((to - from) / placeholders.blockMs) + 1 : 0;
    return {
      row: { channel, programmes: kept.map(programmeRow) },
      bytes: head + bytes + blocks * each,
      complete: kept.length === stored.length,
    };
  }

  function guideRow({ channel, programmes }: GuideDayChannel, from: number, to: number, t: number): Meta {
    const videos =
      programmes.length > 0
        ? programmes.map((p) => {
            const video = programmeVideo(channel, p);
            const streams = catchup.of(channel, p.start, p.stop, t);
            return streams.length > 0 ? { ...video, streams } : video;
          })
        : placeholders.enabled
          ? placeholderVideos(channel, from, to, placeholders)
          : [];
    return channelMeta(channel, videos);
  }

  return {
    name: 'livetv',
    types: ['tv'],
    resources: ['catalog', 'meta', 'stream'],
    idPrefixes: [CHANNEL_PREFIX],
    catalogs: [catalog],
    epgProvider,
    handlers: {
      catalog(request) {
        const filter = filterOf(request);
        const { skip, date } = request.extra;
        if (date === undefined) {
          const rows = filter === undefined ? [] : list.page(filter, skip, PAGE);
          const fit = itemsWithin(rows, maxBytes, previewQuick, previewExact);
          return { metas: rows.slice(0, fit).map(channelPreview), ...LIST_CACHE };
        }
        const { start, end } = guideDayWindow(date);
        if (filter === undefined) return { metasDetailed: [], ...GUIDE_CACHE };
        const version = store.dataVersion(); // before the rows: heads cached under it are never older
        const t = now();
        const raw = list.guidePageRaw(filter, date, skip, PAGE);
        if (raw !== undefined) return { metasDetailed: guidePages.write(raw, start, end, version, t), ...GUIDE_CACHE };
        // A name search or several groups: the channels of the page, each with the programmes of
        // the day that fit what is left of the bound (the page ends before a channel that does not).
        const metas: Meta[] = [];
        let left = maxBytes - 2;
        for (const channel of list.page(filter, skip, PAGE)) {
          const first = metas.length === 0;
          const fit = boundedRow(channel, start, end, t, first ? left : left - 1);
          // Only the page's first channel is cut; a later one that does not fit whole starts the next page.
          if (fit === undefined || (!first && (!fit.complete || fit.bytes > left - 1))) break;
          metas.push(guideRow(fit.row, start, end, t));
          left -= fit.bytes + (first ? 0 : 1);
        }
        return { metasDetailed: metas, ...GUIDE_CACHE };
      },
      meta(request: ItemRequest) {
        const channel = store.getChannel(request.id);
        if (channel === undefined) return null;
        const t = now();
        const fit = boundedRow(channel, t - back, t + ahead, t, maxBytes);
        const row = fit?.row ?? { channel, programmes: [] };
        return { meta: guideRow(row, t - back, t + ahead, t), ...GUIDE_CACHE };
      },
      stream(request: ItemRequest) {
        const channel = store.getChannel(request.id);
        if (channel === undefined) {
          // A programme's id (`{channel}:epg:{start}`): its catch-up streams, when it has them.
          const programme = PROGRAMME_ID.exec(request.id);
          const owner = programme ? store.getChannel(programme[1]!) : undefined;
          const start = programme ? Date.parse(programme[2]!) : Number.NaN;
          if (owner?.catchupStreams === undefined || Number.isNaN(start)) return { streams: [], ...LIST_CACHE };
          const p = store.programmesAround(owner.id, start, start + 1).find((x) => x.start === start);
          const streams = p === undefined ? [] : catchup.of(owner, p.start, p.stop, now());
          return { streams, ...GUIDE_CACHE };
        }
        const origin = request.origin;
        const relay = options.relay && origin !== undefined ? { relay: options.relay, origin } : undefined;
        const streams = channelStreams(
          channel,
          store.getStreams(channel.id, maxStreams),
          streamName,
          health,
          now(),
          relay,
        );
        // Links on the request's own address are not kept for another's (StreamRelay.fixedOrigin).
        const relayed = relay !== undefined && streams.some((s) => s.url?.startsWith(`${origin}/relay/`));
        return { streams, ...(relayed && !options.relay?.fixedOrigin ? RELAYED_CACHE : LIST_CACHE) };
      },
    },
  };
}

/**
 * The `groups` user setting: a comma-separated list of playlist groups to show. Unset or empty
 * shows every group.
 */
function configGroups(config: Readonly<Record<string, unknown>>): string[] | undefined {
  const value = config.groups;
  if (typeof value !== 'string') return undefined;
  const groups = value
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
  return groups.length > 0 ? groups : undefined;
}
