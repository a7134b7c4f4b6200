/**
 * The ordered list of every schema migration of the store. Append only: a released
 * migration is never edited, removed or moved (the runner refuses a file whose recorded
 * names disagree with this list). Each area keeps its migrations in its own file and adds
 * them here, e.g. `import { libraryMigrations } from '../library/migrations.js'`.
 */
import { libraryMigrations } from '../library/migrations.js';
import { coreMigrations } from './core.js';
import { healthMigrations } from './health.js';
import { liveTvMigrations } from './livetv.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration, in the order they are applied; `user_version` = how many are applied. */
export const MIGRATIONS: readonly Migration[] = [
  coreMigrations[0]!,
  liveTvMigrations[0]!,
  libraryMigrations[0]!,
  liveTvMigrations[1]!,
  liveTvMigrations[2]!,
  liveTvMigrations[3]!,
  coreMigrations[1]!,
  coreMigrations[2]!,
  liveTvMigrations[4]!,
  liveTvMigrations[5]!,
  liveTvMigrations[6]!,
  healthMigrations[0]!,
  liveTvMigrations[7]!,
  liveTvMigrations[8]!,
];
