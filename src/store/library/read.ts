/**
 * Library reads on the store's read connection, statements prepared once. Catalog pages are
 * one index range each: the sort order has its own index per type (see migrations.ts), a genre
 * page probes the (type, genre) key, a search page ranks the FTS5 matches by bm25 and breaks
 * ties by name and id so that paging through equal scores stays stable.
 */
import type { Connection, Statement } from '../connection.js';
import { sqliteCode } from '../errors.js';
import { ftsQuery, SEARCH_WEIGHTS } from './search.js';
import type {
  Audience,
  LibraryGenre,
  LibraryPageQuery,
  LibrarySort,
  Meta,
  MetaPreview,
  Stream,
  Subtitle,
} from './types.js';

/** Most items one page query returns: the protocol's page size. */
export const LIBRARY_MAX_PAGE = 100;

const ORDER: Record<LibrarySort, string> = {
  newest: 'i.released DESC, i.id',
  // The same expression as the library_items_oldest index: unknown dates sort last.
  oldest: 'coalesce(i.released, 9e15), i.id',
  name: 'i.name_key, i.id',
  rating: 'i.rating DESC, i.id',
};

const GENRE_FILTER = 'AND i.rid IN (SELECT item_rid FROM library_genres WHERE type = @type AND genre = @genre)';
const BM25 = `bm25(library_search, ${SEARCH_WEIGHTS.join(', ')})`;

const genreOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** `EPISODE_ID` read from the right, so a series id may itself contain `:` (`mq:series-x:1:2`). */
const EPISODE_ID = /^(.+):(\d{1,6}):(\d{1,6})$/;

function bounds(query: LibraryPageQuery): { limit: number; offset: number } {
  const o = query.offset;
  const l = query.limit;
  return {
    offset: Number.isFinite(o) ? Math.max(0, Math.trunc(o!)) : 0,
    limit: Number.isFinite(l) ? Math.min(LIBRARY_MAX_PAGE, Math.max(0, Math.trunc(l!))) : LIBRARY_MAX_PAGE,
  };
}

const adultFlag = (audience: Audience | undefined): number => (audience?.adult === true ? 1 : 0);

/** True for the error SQLite gives a MATCH expression it cannot parse (defence in depth: ftsQuery quotes every word). */
function isFtsSyntaxError(error: unknown): boolean {
  return sqliteCode(error) === 'SQLITE_ERROR' && /fts5|syntax/i.test((error as Error).message);
}

/** The library read functions of one connection. */
export function libraryReads(db: Connection) {
  const cache = new Map<string, Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (s === undefined) {
      s = db.prepare<unknown[]>(sql).raw();
      cache.set(sql, s);
    }
    return s;
  };

  /** The id whose streams/subtitles answer (type, id): the id itself, or the episode its season/episode numbers name. */
  function owner(type: string, id: string, audience: Audience | undefined): string | undefined {
    const adult = adultFlag(audience);
    const direct = stmt(
      `SELECT type, adult FROM library_items WHERE id = @id
       UNION ALL
       SELECT i.type, i.adult FROM library_episodes e JOIN library_items i ON i.rid = e.series_rid WHERE e.id = @id
       LIMIT 1`,
    ).get({ id }) as unknown[] | undefined;
    if (direct) return direct[0] === type && (direct[1] as number) <= adult ? id : undefined;
    // Another add-on's meta (e.g. an IMDb series) names episodes {seriesId}:{season}:{episode}.
    const m = EPISODE_ID.exec(id);
    if (!m) return undefined;
    const row = stmt(
      `SELECT e.id FROM library_items i JOIN library_episodes e ON e.series_rid = i.rid
       WHERE i.id = ? AND i.type = ? AND i.adult <= ? AND e.season = ? AND e.episode = ?`,
    ).get(m[1], type, adult, Number(m[2]), Number(m[3])) as unknown[] | undefined;
    return row?.[0] as string | undefined;
  }

  /** The JSON texts of a catalog page's previews (see libraryPage). */
  function pageTexts(query: LibraryPageQuery): string[] {
    const { limit, offset } = bounds(query);
    if (limit === 0) return [];
    const params: Record<string, unknown> = { type: query.type, adult: adultFlag(query), limit, offset };
    const genre = query.genre === undefined ? '' : GENRE_FILTER;
    if (query.genre !== undefined) params.genre = query.genre;
    let rows: unknown[][];
    if (query.search !== undefined) {
      const match = ftsQuery(query.search);
      if (match === undefined) return [];
      params.match = match;
      try {
        rows = stmt(
          `SELECT i.preview FROM library_search s JOIN library_items i ON i.rid = s.rowid
           WHERE library_search MATCH @match AND i.type = @type AND i.adult <= @adult ${genre}
           ORDER BY ${BM25}, i.name_key, i.id LIMIT @limit OFFSET @offset`,
        ).all(params) as unknown[][];
      } catch (error) {
        if (isFtsSyntaxError(error)) return [];
        throw error;
      }
    } else {
      rows = stmt(
        `SELECT i.preview FROM library_items i WHERE i.type = @type AND i.adult <= @adult ${genre}
         ORDER BY ${ORDER[query.sort ?? 'newest']} LIMIT @limit OFFSET @offset`,
      ).all(params) as unknown[][];
    }
    return rows.map((r) => r[0] as string);
  }

  return {
    /**
     * A catalog page: items of `type` in `sort` order (or by relevance when searching), optionally
     * of one genre; `limit` ≤ 100, any `offset`, an empty page past the end.
     *
     * @example store.libraryPage({ type: 'movie', sort: 'newest', genre: 'Comedy', offset: 100 })
     */
    libraryPage(query: LibraryPageQuery): MetaPreview[] {
      return textsWithin(pageTexts(query), query.maxBytes).map((text) => JSON.parse(text) as MetaPreview);
    },

    /** Genres that have items of `type` the audience may see, by name (case- and accent-insensitive), with counts. */
    libraryGenres(type: string, audience?: Audience): LibraryGenre[] {
      const rows = stmt('SELECT genre, count(*) FROM library_genres WHERE type = ? AND adult <= ? GROUP BY genre').all(
        type,
        adultFlag(audience),
      ) as unknown[][];
      return rows
        .map((r) => ({ genre: r[0] as string, items: r[1] as number }))
        .sort((a, b) => genreOrder.compare(a.genre, b.genre) || (a.genre < b.genre ? -1 : a.genre > b.genre ? 1 : 0));
    },

    /**
     * The meta of item `id` (a series with its episodes as `videos`, by season and episode);
     * undefined when unknown or hidden. With `maxBytes` (an answer's byte bound), a series keeps
     * its first episodes whose JSON fits beside the rest of its meta.
     */
    libraryMeta(type: string, id: string, audience?: Audience, maxBytes?: number): Meta | undefined {
      const row = stmt('SELECT rid, meta FROM library_items WHERE id = ? AND type = ? AND adult <= ?').get(
        id,
        type,
        adultFlag(audience),
      ) as unknown[] | undefined;
      if (row === undefined) return undefined;
      const text = row[1] as string;
      const meta = JSON.parse(text) as Meta;
      if (type !== 'series') return meta;
      const videos = stmt('SELECT video FROM library_episodes WHERE series_rid = ? ORDER BY season, episode').all(
        row[0],
      ) as unknown[][];
      const texts = videos.map((v) => v[0] as string);
      // The meta's own members and `,"videos":` beside the list.
      const room = maxBytes === undefined ? undefined : maxBytes - Buffer.byteLength(text) - 12;
      return { ...meta, videos: textsWithin(texts, room).map((v) => JSON.parse(v)) };
    },

    /** Streams of a movie id or an episode id, in file order; empty when unknown or hidden. */
    libraryStreams(type: string, id: string, audience?: Audience): Stream[] {
      const key = owner(type, id, audience);
      if (key === undefined) return [];
      const rows = stmt('SELECT stream FROM library_streams WHERE owner = ? ORDER BY ord').all(key) as unknown[][];
      return rows.map((r) => JSON.parse(r[0] as string) as Stream);
    },

    /** Subtitles of a movie id or an episode id, in file order; empty when unknown or hidden. */
    librarySubtitles(type: string, id: string, audience?: Audience): Subtitle[] {
      const key = owner(type, id, audience);
      if (key === undefined) return [];
      const rows = stmt('SELECT subtitle FROM library_subtitles WHERE owner = ? ORDER BY ord').all(key) as unknown[][];
      return rows.map((r) => JSON.parse(r[0] as string) as Subtitle);
    },

    /** How many items of `type` the audience may see (of one genre, when given). */
    libraryCount(type: string, options: Audience & { genre?: string } = {}): number {
      const params: Record<string, unknown> = { type, adult: adultFlag(options) };
      if (options.genre !== undefined) params.genre = options.genre;
      const genre = options.genre === undefined ? '' : GENRE_FILTER;
      const row = stmt(`SELECT count(*) FROM library_items i WHERE i.type = @type AND i.adult <= @adult ${genre}`).get(
        params,
      ) as unknown[];
      return row[0] as number;
    },
  };
}

export type LibraryReads = ReturnType<typeof libraryReads>;

/**
 * The first `texts` (JSON items) that fit in a list of at most `maxBytes` (brackets and commas
 * counted): a quick bound of three bytes per UTF-16 unit first, their exact UTF-8 only past it;
 * at least one when there is one (an empty page ends the client's paging).
 */
function textsWithin(texts: string[], maxBytes: number | undefined): string[] {
  if (maxBytes === undefined) return texts;
  let quick = 1;
  for (const t of texts) quick += 3 * t.length + 1;
  if (quick <= maxBytes) return texts;
  let total = 1;
  for (let i = 0; i < texts.length; i++) {
    total += Buffer.byteLength(texts[i]!) + 1;
    if (total > maxBytes) return texts.slice(0, Math.max(1, i));
  }
  return texts;
}
