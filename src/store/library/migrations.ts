import type { Migration } from '../migrations/migration.js';

/**
 * Library tables. Items keep their served JSON ready (`preview` for catalog pages, `meta` for
 * details) so a page is one index range plus a JSON.parse per row, never a rebuild from columns.
 * Sort keys are columns with one index per catalog order; `released`/`rating` are NULL when
 * unknown and the indexes sort them last. `adult` ends each sort index so that the rows a deep
 * `skip` steps over are filtered from the index alone (no table lookup each: 10x faster at skip
 * 50 000). Streams and subtitles are keyed by the public id of their owner (a movie or an
 * episode) because that is what the client asks by. The FTS table is
 * contentless (`content=''`): the text lives in `meta` already, the index only needs the tokens.
 * `addon_manifests` caches other add-ons' manifests for add-on catalogs; a library import never
 * touches it, so the last good copy survives any number of failed refreshes and re-imports.
 */
export const libraryMigrations: readonly Migration[] = [
  {
    name: 'library-001-items-search',
    up(db) {
      db.exec(`
        CREATE TABLE library_items (
          rid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          type TEXT NOT NULL,          -- 'movie' | 'series'
          name_key TEXT NOT NULL,      -- lower-case, accents removed: the name order
          released INTEGER,            -- epoch ms, NULL when unknown
          rating REAL,                 -- imdbRating as a number, NULL when unknown
          adult INTEGER NOT NULL,      -- 1: hidden unless the user's config allows adult items
          preview TEXT NOT NULL,       -- JSON Meta Preview served in catalog pages
          meta TEXT NOT NULL           -- JSON Meta without videos
        );
        CREATE INDEX library_items_newest ON library_items (type, released DESC, id, adult);
        CREATE INDEX library_items_oldest ON library_items (type, coalesce(released, 9e15), id, adult);
        CREATE INDEX library_items_name ON library_items (type, name_key, id, adult);
        CREATE INDEX library_items_rating ON library_items (type, rating DESC, id, adult);

        CREATE TABLE library_genres (
          type TEXT NOT NULL,
          genre TEXT NOT NULL,
          item_rid INTEGER NOT NULL,
          adult INTEGER NOT NULL,
          PRIMARY KEY (type, genre, item_rid)
        ) WITHOUT ROWID;

        CREATE TABLE library_episodes (
          id TEXT PRIMARY KEY,
          series_rid INTEGER NOT NULL,
          season INTEGER NOT NULL,
          episode INTEGER NOT NULL,
          video TEXT NOT NULL          -- JSON Video served in the series meta
        );
        CREATE UNIQUE INDEX library_episodes_number ON library_episodes (series_rid, season, episode);

        CREATE TABLE library_streams (
          owner TEXT NOT NULL,         -- movie id or episode id
          ord INTEGER NOT NULL,
          stream TEXT NOT NULL,        -- JSON Stream
          PRIMARY KEY (owner, ord)
        ) WITHOUT ROWID;

        CREATE TABLE library_subtitles (
          owner TEXT NOT NULL,
          ord INTEGER NOT NULL,
          subtitle TEXT NOT NULL,      -- JSON { id, url, lang }
          PRIMARY KEY (owner, ord)
        ) WITHOUT ROWID;

        CREATE VIRTUAL TABLE library_search USING fts5(
          name, cast, director, description,
          content = '',
          tokenize = "unicode61 remove_diacritics 2"
        );

        CREATE TABLE addon_manifests (
          url TEXT PRIMARY KEY,
          manifest TEXT,               -- JSON of the last manifest that validated; NULL until one did
          fetched_at INTEGER,          -- epoch ms of that manifest
          etag TEXT,
          last_modified TEXT,
          checked_at INTEGER NOT NULL, -- epoch ms of the last attempt, good or bad
          error TEXT                   -- why the last attempt failed; NULL when it succeeded
        ) WITHOUT ROWID;
      `);
    },
  },
];
