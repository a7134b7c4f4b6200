import type { Connection } from '../connection.js';

/**
 * One schema step. Migrations run in list order, each once, inside the one write transaction
 * that also sets `PRAGMA user_version` to the number applied; `name` is recorded so a changed
 * order is detected instead of silently skipping a step.
 */
export interface Migration {
  /** Stable, unique name (`livetv-001-channels`); never renamed once released. */
  readonly name: string;
  /** Applies the step. Must only use `db.exec`/prepared statements: no own transaction. */
  up(db: Connection): void;
}
