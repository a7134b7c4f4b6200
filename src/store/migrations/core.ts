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
];
