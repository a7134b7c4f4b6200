/**
 * Live-TV reads on the store's read connection. Statements are prepared once per store and
 * run in raw mode (arrays are much cheaper to materialise than better-sqlite3's row objects);
 * every programme query is a range scan of the (key_id, start) index bounded below by
 * `start > from - max_duration` of the guide channel.
 */
import { MarqueeError } from '../../errors.js';
import type { Connection, Statement } from '../connection.js';
import {
  CHANNEL_SELECT,
  channelFromRaw,
  normalizeName,
  PROGRAMME_JSON,
  PROGRAMME_SELECT,
  programmeFromRaw,
  streamFromRaw,
} from './rows.js';
import type {
  ChannelQuery,
  ChannelRow,
  GroupRow,
  GuideChannelRow,
  GuideDayChannel,
  GuideDayQuery,
  GuideDayRawChannel,
  ProgrammeRow,
  StreamRow,
} from './types.js';

const DAY = 86_400_000;
export const MAX_PAGE = 1_000;
const DEFAULT_PAGE = 100;

/** `YYYY-MM-DD` → epoch ms of that UTC midnight, or BAD_REQUEST. */
export function parseUtcDay(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new MarqueeError('BAD_REQUEST', `day must be a UTC date YYYY-MM-DD, got "${String(day).slice(0, 40)}"`);
  }
  return ms;
}

function page(offset: number | undefined, limit: number | undefined): [limit: number, offset: number] {
  const o = Number.isFinite(offset) ? Math.max(0, Math.trunc(offset!)) : 0;
  const l = Number.isFinite(limit) ? Math.min(MAX_PAGE, Math.max(0, Math.trunc(limit!))) : DEFAULT_PAGE;
  return [l, o];
}

function filter(
  group: string | undefined,
  search: string | undefined,
): { where: string; params: unknown[]; key: string } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (group !== undefined) {
    clauses.push('c.grp = ?');
    params.push(group);
  }
  const needle = search === undefined ? '' : normalizeName(search);
  if (needle !== '') {
    clauses.push('instr(c.name_norm, ?) > 0');
    params.push(needle);
  }
  return {
    where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`,
    params,
    key: `${group !== undefined}${needle !== ''}`,
  };
}

// Programmes overlapping [@from, @to]: stop > @from and start < @to, with start > @from - max_duration
// bounding the index range (a programme lasts at most max_duration of its guide channel).
// CROSS JOIN keeps guide_channels the outer loop: otherwise SQLite drives the IN list into
// programmes directly and loses the lower bound, scanning each channel's whole past.
const OVERLAPPING = `
  FROM guide_channels g
  CROSS JOIN programmes p ON p.key_id = g.id AND p.start > @from - g.max_duration AND p.start < @to AND p.stop > @from`;

/** Per guide channel in the JSON array @keys: its programmes overlapping [@from, @to] as one JSON array. */
export const GUIDE_PROGRAMMES_SQL = `SELECT g.id, json_group_array(${PROGRAMME_JSON}) ${OVERLAPPING}
  WHERE g.id IN (SELECT value FROM json_each(@keys)) GROUP BY g.id`;

/**
 * Per guide channel in @keys: its programmes overlapping [@from, @to] as one BLOB of entries
 * `{start},{stop},{byte length of video},{video}` (see GuideDayRawChannel). The index scan gives
 * start order; readers check it rather than pay for an ORDER BY per channel.
 */
export const GUIDE_VIDEOS_SQL = `SELECT g.id, CAST(group_concat(p.start || ',' || p.stop || ',' || octet_length(p.video) || ',' || p.video, '') AS BLOB)
  ${OVERLAPPING} WHERE g.id IN (SELECT value FROM json_each(@keys)) GROUP BY g.id`;

/** Programmes of channel @channel overlapping [@from, @to]. */
export const AROUND_SQL = `SELECT ${PROGRAMME_SELECT} ${OVERLAPPING} JOIN channels c ON c.key_id = g.id WHERE c.id = @channel ORDER BY p.start`;

/**
 * `list` in start order. The index scan already yields that order, so this is one pass; an
 * ORDER BY inside json_group_array would cost a sort per channel (a third of the query time).
 */
function byStart(list: ProgrammeRow[]): ProgrammeRow[] {
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1]!.start > list[i]!.start) return list.sort((a, b) => a.start - b.start);
  }
  return list;
}

/** The live-TV read functions of one connection. */
export function liveTvReads(db: Connection) {
  const cache = new Map<string, Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (s === undefined) {
      s = db.prepare<unknown[]>(sql).raw();
      cache.set(sql, s);
    }
    return s;
  };

  function channelPage(query: ChannelQuery): unknown[][] {
    const f = filter(query.group, query.search);
    const [limit, offset] = page(query.offset, query.limit);
    if (limit === 0) return [];
    const sql = `SELECT ${CHANNEL_SELECT} FROM channels c ${f.where} ORDER BY c.sort, c.rid LIMIT ? OFFSET ?`;
    return stmt(sql).all(...f.params, limit, offset) as unknown[][];
  }

  /**
   * A page of channels (raw rows) and, per guide key among them, the value `sql` (one of the
   * guide-day queries) gives for UTC `query.day`.
   */
  function channelDay(query: GuideDayQuery, sql: string): { channels: unknown[][]; byKey: Map<number, unknown> } {
    const from = parseUtcDay(query.day);
    const to = from + DAY - 1; // 23:59:59.999
    const channels = channelPage(query);
    const keyIds = [...new Set(channels.map((c) => c[9]).filter((k) => k !== null))];
    const byKey = new Map<number, unknown>();
    if (keyIds.length > 0) {
      const rows = stmt(sql).all({ from, to, keys: JSON.stringify(keyIds) }) as unknown[][];
      for (const [key, value] of rows) byKey.set(key as number, value);
    }
    return { channels, byKey };
  }

  return {
    /** Channels in catalog order (sort, then insertion), filtered by group and/or name. */
    listChannels(query: ChannelQuery = {}): ChannelRow[] {
      return channelPage(query).map(channelFromRaw);
    },

    /** How many channels match the filter. */
    countChannels(query: Pick<ChannelQuery, 'group' | 'search'> = {}): number {
      const f = filter(query.group, query.search);
      const row = stmt(`SELECT count(*) FROM channels c ${f.where}`).get(...f.params) as unknown[];
      return row[0] as number;
    },

    /** Groups that have channels, in the order their first channel appears. */
    groups(): GroupRow[] {
      const rows = stmt(
        'SELECT name, channels FROM channel_groups ORDER BY first_sort, first_rid',
      ).all() as unknown[][];
      return rows.map((r) => ({ name: r[0] as string, channels: r[1] as number }));
    },

    getChannel(id: string): ChannelRow | undefined {
      const row = stmt(`SELECT ${CHANNEL_SELECT} FROM channels c WHERE c.id = ?`).get(id) as unknown[] | undefined;
      return row === undefined ? undefined : channelFromRaw(row);
    },

    /** The streams of a channel in playlist order; empty for an unknown id. */
    getStreams(channelId: string): StreamRow[] {
      const rows = stmt(
        `SELECT s.url, s.name, s.user_agent, s.referrer, s.kodi_props FROM channels c
         JOIN streams s ON s.channel_rid = c.rid WHERE c.id = ? ORDER BY s.ord`,
      ).all(channelId) as unknown[][];
      return rows.map(streamFromRaw);
    },

    getGuideChannel(key: string): GuideChannelRow | undefined {
      const r = stmt('SELECT key, names, icon, url FROM guide_channels WHERE key = ?').get(key) as
        | unknown[]
        | undefined;
      if (r === undefined) return undefined;
      return {
        key: r[0] as string,
        displayNames: JSON.parse(r[1] as string),
        icon: (r[2] as string | null) ?? undefined,
        url: (r[3] as string | null) ?? undefined,
      };
    },

    /** A page of channels with their programmes overlapping UTC `day`: two queries in all. */
    guideDay(query: GuideDayQuery): GuideDayChannel[] {
      const { channels, byKey } = channelDay(query, GUIDE_PROGRAMMES_SQL);
      return channels.map((c) => {
        const json = byKey.get(c[9] as number) as string | undefined;
        const programmes = json === undefined ? [] : byStart((JSON.parse(json) as unknown[][]).map(programmeFromRaw));
        return { channel: channelFromRaw(c), programmes };
      });
    },

    /**
     * The same page as `guideDay`, with each channel's programmes as the raw entries a guide page
     * is written from (no row objects): two queries and no per-programme allocation.
     */
    guideDayRaw(query: GuideDayQuery): GuideDayRawChannel[] {
      const { channels, byKey } = channelDay(query, GUIDE_VIDEOS_SQL);
      return channels.map((c) => {
        const entries = byKey.get(c[9] as number) as Buffer | undefined;
        return entries === undefined ? { channel: channelFromRaw(c) } : { channel: channelFromRaw(c), entries };
      });
    },

    /** Programmes of one channel overlapping [fromMs, toMs), by start. */
    programmesAround(channelId: string, fromMs: number, toMs: number): ProgrammeRow[] {
      if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) return [];
      const rows = stmt(AROUND_SQL).all({ from: fromMs, to: toMs, channel: channelId }) as unknown[][];
      return rows.map(programmeFromRaw);
    },

    /** True when at least one programme is stored. */
    hasProgrammes(): boolean {
      return (stmt('SELECT EXISTS (SELECT 1 FROM programmes)').get() as unknown[])[0] === 1;
    },
  };
}

export type LiveTvReads = ReturnType<typeof liveTvReads>;
