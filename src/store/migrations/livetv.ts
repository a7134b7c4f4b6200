import { type ProgrammeContent, videoTail } from '../livetv/rows.js';
import type { Migration } from './migration.js';

/** The programme index of livetv-001 and -002 (frozen with them; programmes became guide days in -003). */
const PROGRAMMES_INDEX_SQL = 'CREATE UNIQUE INDEX programmes_key_start ON programmes (key_id, start)';

const DAY = 86_400_000;

/**
 * Live-TV tables. Programmes are keyed by the guide's channel (`guide_channels.id`), so matching
 * a playlist channel to a guide is only `channels.key_id`, and several channels can share one
 * guide. Since livetv-003 they are stored as guide days (one row per guide channel and day).
 */
export const liveTvMigrations: readonly Migration[] = [
  {
    name: 'livetv-001-channels-guide',
    up(db) {
      db.exec(`
        CREATE TABLE channels (
          rid INTEGER PRIMARY KEY,     -- insertion order: the tie-break after sort
          id TEXT NOT NULL UNIQUE,     -- stable public id (mq-tv:...), computed by the backend
          name TEXT NOT NULL,
          name_norm TEXT NOT NULL,     -- lower-case, accents removed: substring search
          logo TEXT,
          grp TEXT,
          number REAL,
          sort REAL NOT NULL,
          guide_key TEXT,
          key_id INTEGER,              -- guide_channels.id of guide_key
          catchup TEXT,                -- JSON object
          source TEXT
        );
        CREATE INDEX channels_sort ON channels (sort);
        CREATE INDEX channels_grp_sort ON channels (grp, sort);

        CREATE TABLE streams (
          channel_rid INTEGER NOT NULL,
          ord INTEGER NOT NULL,
          url TEXT NOT NULL,
          name TEXT,
          user_agent TEXT,
          referrer TEXT,
          kodi_props TEXT,             -- JSON object
          PRIMARY KEY (channel_rid, ord)
        ) WITHOUT ROWID;

        CREATE TABLE guide_channels (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          names TEXT NOT NULL,         -- JSON [{ text, lang? }]
          icon TEXT,
          url TEXT,
          prio INTEGER,                -- priority of the source the names came from
          max_duration INTEGER NOT NULL DEFAULT 0
        );

        CREATE TABLE programmes (
          key_id INTEGER NOT NULL,
          start INTEGER NOT NULL,      -- epoch ms, UTC
          stop INTEGER NOT NULL,
          prio INTEGER NOT NULL,       -- source priority, lower wins
          title TEXT NOT NULL,
          sub_title TEXT,
          description TEXT,
          icon TEXT,
          categories TEXT,             -- JSON string[]
          season INTEGER,
          episode INTEGER,
          episode_label TEXT,
          air_date TEXT,
          flags INTEGER NOT NULL,      -- 1 previously shown, 2 new
          extra TEXT                   -- JSON { ratings, starRating, directors, actors }
        );
        ${PROGRAMMES_INDEX_SQL};

        CREATE TABLE channel_groups (
          name TEXT PRIMARY KEY,
          first_sort REAL NOT NULL,
          first_rid INTEGER NOT NULL,
          channels INTEGER NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // What a programme shows is stored once, rendered as its video fields (`video`, see
    // rows.ts videoTail): guide pages splice it instead of building and validating thousands of
    // objects per request. Stored rows get theirs from their old columns, which then go.
    name: 'livetv-002-programme-video',
    up(db) {
      db.function('marquee_legacy_video', { varargs: true, deterministic: true }, (...raw: unknown[]) =>
        videoTail(legacyContent(raw)),
      );
      db.exec(`
        CREATE TABLE programmes_v2 (
          key_id INTEGER NOT NULL,
          start INTEGER NOT NULL,      -- epoch ms, UTC
          stop INTEGER NOT NULL,
          prio INTEGER NOT NULL,       -- source priority, lower wins
          title TEXT NOT NULL,         -- the guide's title and sub-title, as given
          sub_title TEXT,
          episode_label TEXT,
          flags INTEGER NOT NULL,      -- 1 previously shown, 2 new
          video TEXT NOT NULL          -- the video fields as JSON members: ,"title":"…","overview":"…"
        );
        INSERT INTO programmes_v2 (key_id, start, stop, prio, title, sub_title, episode_label, flags, video)
          SELECT key_id, start, stop, prio, title, sub_title, episode_label, flags,
            marquee_legacy_video(title, sub_title, description, icon, categories, season, episode, air_date, extra)
          FROM programmes ORDER BY key_id, start;
        DROP TABLE programmes;
        ALTER TABLE programmes_v2 RENAME TO programmes;
        ${PROGRAMMES_INDEX_SQL};
      `);
    },
  },
  {
    // Programmes as guide days (store/livetv/guide-days.ts): one row of entries per guide channel
    // and UTC day, so a guide page reads 100 rows instead of concatenating 4,800. Stored
    // programmes are grouped into the days they belong to (they end after the day's first
    // instant and start before its last), in start order; the programmes table then goes.
    // guide_channels.max_duration, which bounded the old range scans, is left unused.
    name: 'livetv-003-guide-days',
    up(db) {
      db.exec(`
        CREATE TABLE guide_days (
          key_id INTEGER NOT NULL,     -- guide_channels.id
          day INTEGER NOT NULL,        -- epoch ms of the UTC midnight
          part INTEGER NOT NULL,       -- an import writes parts and joins them at commit
          entries BLOB NOT NULL,       -- {start},{stop},{byte length of video},{video} per programme
          PRIMARY KEY (key_id, day, part)
        );
        WITH RECURSIVE days(day) AS (
          SELECT (min(start) / ${DAY} - 1) * ${DAY} FROM programmes
          UNION ALL
          SELECT day + ${DAY} FROM days WHERE day + ${DAY} < (SELECT max(stop) FROM programmes)
        ),
        -- The longest programme of each guide channel bounds each day's index range.
        spans(key_id, longest) AS (SELECT key_id, max(stop - start) FROM programmes GROUP BY key_id)
        INSERT INTO guide_days (key_id, day, part, entries)
          SELECT s.key_id, d.day, 0,
            CAST(group_concat(p.start || ',' || p.stop || ',' || octet_length(p.video) || ',' || p.video, '' ORDER BY p.start) AS BLOB)
          FROM days d CROSS JOIN spans s
          CROSS JOIN programmes p ON p.key_id = s.key_id AND p.start > d.day - s.longest - 1
            AND p.start < d.day + ${DAY} - 1 AND p.stop > d.day
          GROUP BY s.key_id, d.day;
        DROP TABLE programmes;
      `);
    },
  },
  {
    // Each channel's guide-page head (its meta up to its videos), rendered by the backend at
    // import (types.ts ChannelHead): a guide page then copies it instead of rendering 100 heads.
    // Channels stored before have none until the next import; pages render theirs meanwhile.
    name: 'livetv-004-channel-heads',
    up(db) {
      db.exec(`
        ALTER TABLE channels ADD COLUMN head TEXT;
        ALTER TABLE channels ADD COLUMN head_format INTEGER;
      `);
    },
  },
  {
    // The source a stream came from, by a short name (`tv.m3u`, `tv.example:8080`), set when a
    // channel's streams come from several sources: the client lists each under it.
    name: 'livetv-005-stream-source',
    up(db) {
      db.exec('ALTER TABLE streams ADD COLUMN source TEXT;');
    },
  },
  {
    // Catch-up: the streams of a channel that can play its past programmes, as JSON
    // (CatchupStream[]), read with the channel so guide pages need no query per channel. Stores
    // from before get them at their next import.
    name: 'livetv-006-catchup-streams',
    up(db) {
      db.exec('ALTER TABLE channels ADD COLUMN catchup_streams TEXT;');
    },
  },
  {
    // How each channel found its guide channel (the rule, a score, the closest candidates), or
    // why it has none, replaced with every import: `marquee status --matches` reads it.
    name: 'livetv-007-channel-matches',
    up(db) {
      db.exec(`
        CREATE TABLE channel_matches (
          channel_id TEXT PRIMARY KEY,  -- channels.id
          name TEXT NOT NULL,
          pin TEXT NOT NULL,            -- what guideOverrides names it by (tvg-id, tvg-name or name)
          guide TEXT,                   -- the guide channel id, when one was found
          rule TEXT,                    -- override, tvgId, feed, displayName, normalizedName, scored
          score REAL,                   -- scored matches: 0..1
          candidates TEXT               -- JSON [{ id, score }]: the closest other guide channels
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // The review list shows every guide channel by its display name too (`g3` alone says nothing):
    // the chosen guide channel's name here, the candidates' in their JSON ({ id, name, score,
    // failedGuide }). Matches recorded before have no names until the next import.
    name: 'livetv-008-match-guide-names',
    up(db) {
      db.exec('ALTER TABLE channel_matches ADD COLUMN guide_name TEXT;');
    },
  },
  {
    // The line of each stream's entry in its playlist (its #EXTINF; an Xtream account's list
    // position), so a channel's streams on one host (`…/backup.ts` twice) can be told apart in
    // `marquee health --json` and `status`. Streams stored before have none until the next import.
    name: 'livetv-009-stream-line',
    up(db) {
      db.exec('ALTER TABLE streams ADD COLUMN line INTEGER;');
    },
  },
];

/** A programme's content from the columns of livetv-001 (frozen with that schema). */
function legacyContent(r: readonly unknown[]): ProgrammeContent {
  const json = <T>(value: unknown, empty: T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : empty);
  const extra = json<{
    ratings?: ProgrammeContent['ratings'];
    starRating?: string;
    directors?: string[];
    actors?: string[];
  }>(r[8], {});
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const integer = (value: unknown) => (typeof value === 'number' ? value : undefined);
  return {
    title: text(r[0]) ?? '',
    subTitle: text(r[1]),
    description: text(r[2]),
    icon: text(r[3]),
    categories: json<string[]>(r[4], []),
    season: integer(r[5]),
    episode: integer(r[6]),
    date: text(r[7]),
    ratings: extra.ratings ?? [],
    starRating: extra.starRating,
    directors: extra.directors ?? [],
    actors: extra.actors ?? [],
  };
}
