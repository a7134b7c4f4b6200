/**
 * Live-TV reads on the store's read connection. Statements are prepared once per store and
 * run in raw mode (arrays are much cheaper to materialise than better-sqlite3's row objects);
 * programmes are read as guide days (guide-days.ts): one row per guide channel and UTC day.
 */
import { MarqueeError } from '../../errors.js';
import type { Connection, Statement } from '../connection.js';
import { DAY, programmesOf, type StoredProgramme } from './guide-days.js';
import { healthFromRaw } from './health.js';
import { CHANNEL_SELECT, channelFromRaw, normalizeName, programmeRow, streamFromRaw } from './rows.js';
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
  except?: string,
): { where: string; params: unknown[]; key: string } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (except !== undefined) {
    // Row ids, not public ids: the rid is in every index, so a skipped row is never read for it.
    clauses.push('c.rid NOT IN (SELECT value FROM json_each(?))');
    params.push(except);
  }
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

/**
 * The guide day @day of each guide channel in the JSON array @keys. An import joins its parts
 * at commit, so there is one row per key and day; should there be more, they are read in order.
 */
export const GUIDE_DAYS_SQL = `SELECT key_id, entries FROM guide_days
  WHERE day = @day AND key_id IN (SELECT value FROM json_each(@keys)) ORDER BY key_id, part`;

/** The same as text (the entries are UTF-8): JS strings, which cost the server no native memory. */
const GUIDE_DAYS_TEXT_SQL = GUIDE_DAYS_SQL.replace('key_id, entries', 'key_id, CAST(entries AS TEXT)');

/** Guide days [@from, @to] of the guide channel of channel @channel. */
const CHANNEL_DAYS_SQL = `SELECT d.entries FROM channels c JOIN guide_days d ON d.key_id = c.key_id
  WHERE c.id = @channel AND d.day >= @from AND d.day <= @to ORDER BY d.day, d.part`;

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

  /** Programmes of one channel overlapping [fromMs, toMs), by start, as stored (video fields as JSON text). */
  function storedAround(channelId: string, fromMs: number, toMs: number): StoredProgramme[] {
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs <= fromMs) return [];
    // Every programme overlapping the window belongs to one of these days (guide-days.ts).
    const from = Math.floor(fromMs / DAY) * DAY;
    const blobs = stmt(CHANNEL_DAYS_SQL).pluck(true).all({ channel: channelId, from, to: toMs }) as Buffer[];
    return programmesOf(blobs).filter((p) => p.start < toMs && p.stop > fromMs);
  }

  /** Rows of CHANNEL_SELECT (and `more` columns after it) of a page of channels. */
  function channelPage(query: ChannelQuery, more = ''): unknown[][] {
    const f = filter(query.group, query.search, query.except);
    const [limit, offset] = page(query.offset, query.limit);
    if (limit === 0) return [];
    const sql = `SELECT ${CHANNEL_SELECT}${more} FROM channels c ${f.where} ORDER BY c.sort, c.rid LIMIT ? OFFSET ?`;
    return stmt(sql).all(...f.params, limit, offset) as unknown[][];
  }

  /** A page of channels (raw rows) and, per guide key among them, its entries for UTC `query.day`. */
  function channelDay<T extends Buffer | string>(
    query: GuideDayQuery,
    sql: string,
    join: (before: T, more: T) => T,
    more = '',
  ): { channels: unknown[][]; byKey: Map<number, T> } {
    const day = parseUtcDay(query.day);
    const channels = channelPage(query, more);
    const keyIds = [...new Set(channels.map((c) => c[9]).filter((k) => k !== null))];
    const byKey = new Map<number, T>();
    if (keyIds.length > 0) {
      const rows = stmt(sql).all({ day, keys: JSON.stringify(keyIds) }) as [number, T][];
      for (const [key, entries] of rows) {
        const before = byKey.get(key);
        byKey.set(key, before === undefined ? entries : join(before, entries));
      }
    }
    return { channels, byKey };
  }

  return {
    /** Channels in catalog order (sort, then insertion), filtered by group and/or name. */
    listChannels(query: ChannelQuery = {}): ChannelRow[] {
      return channelPage(query).map(channelFromRaw);
    },

    /** How many channels match the filter. */
    countChannels(query: Pick<ChannelQuery, 'group' | 'search' | 'except'> = {}): number {
      const f = filter(query.group, query.search, query.except);
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

    /**
     * The streams of a channel in playlist order, each with its health when it was checked; empty
     * for an unknown id. At most `max` of them (the first ones): what a store written before the
     * streams cap holds, or written under a higher one, is bounded when read.
     */
    getStreams(channelId: string, max?: number): StreamRow[] {
      const rows = stmt(
        `SELECT s.url, s.name, s.user_agent, s.referrer, s.kodi_props, s.source,
           h.state, h.detail, h.checked_at, h.failures, h.failing_since, h.last_ok_at, s.origin
         FROM channels c JOIN streams s ON s.channel_rid = c.rid LEFT JOIN stream_health h ON h.url = s.url
         WHERE c.id = ? ORDER BY s.ord LIMIT ?`,
      ).all(channelId, max === undefined || !(max >= 0) ? -1 : Math.floor(max)) as unknown[][];
      return rows.map((r) => {
        const stream = streamFromRaw(r);
        const health = healthFromRaw(r, 6);
        // The source it came from: the relay counts its connections against that source's limit.
        const origin = typeof r[12] === 'string' ? { origin: r[12] } : {};
        return health === undefined ? { ...stream, ...origin } : { ...stream, ...origin, health };
      });
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

    /** A page of channels with their programmes of UTC `day`: two queries in all. */
    guideDay(query: GuideDayQuery): GuideDayChannel[] {
      const { channels, byKey } = channelDay<Buffer>(query, GUIDE_DAYS_SQL, (a, b) => Buffer.concat([a, b]));
      return channels.map((c) => {
        const entries = byKey.get(c[9] as number);
        return {
          channel: channelFromRaw(c),
          programmes: entries === undefined ? [] : programmesOf([entries]).map(programmeRow),
        };
      });
    },

    /**
     * The same page as `guideDay`, with each channel's programmes as the raw entries a guide page
     * is written from (no row objects): two queries and no per-programme allocation.
     */
    guideDayRaw(query: GuideDayQuery): GuideDayRawChannel[] {
      const format = query.headFormat;
      // An integer in the text (checked): one prepared statement per format.
      const head =
        format !== undefined && Number.isSafeInteger(format)
          ? `, CASE WHEN c.head_format = ${format} THEN c.head END`
          : ', NULL';
      const { channels, byKey } = channelDay<string>(query, GUIDE_DAYS_TEXT_SQL, (a, b) => a + b, head);
      return channels.map((c) => {
        const entries = byKey.get(c[9] as number);
        const row: { channel: ChannelRow; entries?: string; head?: string } = { channel: channelFromRaw(c) };
        if (entries !== undefined) row.entries = entries;
        if (c[11] !== null) row.head = c[11] as string;
        return row;
      });
    },

    /** Programmes of one channel overlapping [fromMs, toMs), by start. */
    programmesAround(channelId: string, fromMs: number, toMs: number): ProgrammeRow[] {
      return storedAround(channelId, fromMs, toMs).map(programmeRow);
    },

    /**
     * `programmesAround` as stored: each programme's video fields still the JSON text they are kept
     * as (its length bounds what it adds to an answer, before anything is parsed).
     */
    storedProgrammesAround: storedAround,

    /** True when at least one programme is stored. */
    hasProgrammes(): boolean {
      return (stmt('SELECT EXISTS (SELECT 1 FROM guide_days)').get() as unknown[])[0] === 1;
    },
  };
}

export type LiveTvReads = ReturnType<typeof liveTvReads>;
