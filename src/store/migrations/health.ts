import type { Migration } from './migration.js';

/**
 * Stream health (store/livetv/health.ts): what the last checks of each stream URL found, kept
 * beside the streams and keyed by URL, so a stream's health survives re-imports of an unchanged
 * URL (an import rewrites the streams table, never this one). `streams.origin` names the source a
 * stream came from (its source state key), so checks can be limited to some sources and counted
 * per source; streams stored before have none until their next import.
 */
export const healthMigrations: readonly Migration[] = [
  {
    name: 'health-001-stream-health',
    up(db) {
      db.exec(`
        ALTER TABLE streams ADD COLUMN origin TEXT;
        CREATE TABLE stream_health (
          url TEXT PRIMARY KEY,
          state TEXT NOT NULL,         -- ok | dead | blocked | not-media | timeout: the last check
          detail TEXT,                 -- what it saw: 'HTTP 404', 'an HTML page', 'MPEG-TS'
          checked_at INTEGER NOT NULL, -- epoch ms of the last check
          failures INTEGER NOT NULL,   -- consecutive checks that were not ok
          failing_since INTEGER,       -- the first of them
          last_ok_at INTEGER,          -- the last check that was ok
          changed_at INTEGER,          -- when the state last changed (a first check counts)
          previous_state TEXT,         -- the state before that change; NULL when never checked before
          etag TEXT,                   -- validators of the last ok answer, sent back next time
          last_modified TEXT
        ) WITHOUT ROWID;
      `);
    },
  },
];
