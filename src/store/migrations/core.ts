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
