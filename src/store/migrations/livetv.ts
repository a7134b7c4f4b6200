import { type ProgrammeContent, videoTail } from '../livetv/rows.js';
import type { Migration } from './migration.js';

/**
 * The programme index. Imports drop it before inserting and build it once at commit (a bulk
 * build from sorted keys is much cheaper than maintaining it row by row), so this statement is
 * shared with livetv/finish.ts. Changing it needs a new migration too.
 */
export const PROGRAMMES_INDEX_SQL = 'CREATE UNIQUE INDEX programmes_key_start ON programmes (key_id, start)';

/**
 * Live-TV tables. Programmes are keyed by the guide's channel (`guide_channels.id`), so matching
 * a playlist channel to a guide is only `channels.key_id`, and several channels can share one
 * guide. The unique (key_id, start) index is both the "one programme per start" rule and the
 * index that makes a guide day a range scan: start > day start - max_duration of that key.
 * Rarely used programme fields live in one JSON column (`extra`) to keep rows compact.
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
