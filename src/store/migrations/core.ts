import type { Migration } from './migration.js';

/**
 * Tables every content area shares. `imports` records each import (any kind) so the server can
 * report the last one and use the newest successful id as its cache version.
 */
export const coreMigrations: readonly Migration[] = [
  {
    name: 'core-001-imports',
    up(db) {
      db.exec(`
        CREATE TABLE imports (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,          -- 'livetv', 'library', ...
          status TEXT NOT NULL,        -- 'running' | 'ok' | 'failed' | 'interrupted'
          started_at INTEGER NOT NULL, -- epoch ms
          finished_at INTEGER,
          report TEXT                  -- JSON
        );
        CREATE INDEX imports_kind ON imports (kind, id);
      `);
    },
  },
  {
    // Per-source last good state (store/sources.ts): a source that goes bad is rebuilt from its
    // last good copy (a file beside the store) instead of taking what it served with it.
    name: 'core-002-source-states',
    up(db) {
      db.exec(`
        CREATE TABLE source_states (
          key TEXT PRIMARY KEY,        -- sourceKey(kind, location)
          area TEXT NOT NULL,          -- the import kind that owns it ('livetv', 'library')
          kind TEXT NOT NULL,          -- 'playlist', 'guide', 'library', ...
          label TEXT NOT NULL,         -- the location, credentials redacted
          position INTEGER NOT NULL,   -- order among the area's sources
          good_at INTEGER,             -- last good import, epoch ms
          good_counts TEXT,            -- JSON, what it yielded then
          copy_file TEXT,              -- its last good copy, in the copies folder beside the store file
          copy_bytes INTEGER,          -- that file's size, checked before it is read
          attempt_at INTEGER,
          outcome TEXT,                -- SourceOutcome of the latest attempt
          reason TEXT,
          kept_since INTEGER           -- start of the current run of kept/none outcomes
        );
        CREATE INDEX source_states_area ON source_states (area, position);
      `);
    },
  },
  {
    // Numbered after core-002-source-states (issue #17), which lands beside it.
    name: 'core-003-manifest-changes',
    up(db) {
      db.exec(`
        CREATE TABLE manifest_versions (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,         -- epoch ms the server first built this manifest
          base_version TEXT NOT NULL,  -- the version the settings give
          version TEXT NOT NULL,       -- the version served (bumped on each change)
          facts TEXT NOT NULL,         -- JSON: what routes or lists content (manifestFacts)
          added TEXT NOT NULL,         -- JSON: facts new since the previous row
          removed TEXT NOT NULL        -- JSON: facts gone since the previous row
        );
      `);
    },
  },
];
