/**
 * Schema migrations through `PRAGMA user_version`: the number of migrations applied. Pending
 * ones run in one IMMEDIATE transaction (all or nothing; two processes opening a new file at
 * once serialise on the write lock and the second finds nothing to do). `application_id` marks
 * the file as Marquee's so another program's SQLite file is refused rather than altered.
 */
import { MarqueeError } from '../errors.js';
import type { Connection } from './connection.js';
import { storeError } from './errors.js';
import type { Migration } from './migrations/index.js';

/** 'MRQE': written to the header of every Marquee store. */
export const APPLICATION_ID = 0x4d525145;

function unavailable(file: string, message: string): MarqueeError {
  return new MarqueeError('STORE_UNAVAILABLE', `${file}: ${message}`, { details: { file } });
}

function version(db: Connection): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Throws unless the applied migrations recorded in the file are a prefix of `migrations`. */
function verifyApplied(db: Connection, file: string, migrations: readonly Migration[], applied: number): void {
  if (applied > migrations.length) {
    throw unavailable(
      file,
      `the store was written by a newer Marquee (schema ${applied}, this version knows ${migrations.length}). ` +
        'Upgrade Marquee or point it at another database file.',
    );
  }
  if (applied === 0) return;
  const rows = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as Array<{
    version: number;
    name: string;
  }>;
  for (let i = 0; i < applied; i++) {
    const expected = migrations[i]!.name;
    if (rows[i]?.version !== i + 1 || rows[i]?.name !== expected) {
      throw unavailable(
        file,
        `schema step ${i + 1} in the file is "${rows[i]?.name ?? 'missing'}" but this Marquee expects "${expected}". ` +
          'The file comes from an incompatible build; rebuild it by importing into a new file.',
      );
    }
  }
}

function hasTables(db: Connection): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' LIMIT 1").get() !== undefined;
}

/**
 * Brings `db` to the newest schema of `migrations`, or throws STORE_UNAVAILABLE naming `file`.
 *
 * @example migrate(db, '/data/marquee.db', MIGRATIONS)
 */
export function migrate(db: Connection, file: string, migrations: readonly Migration[]): void {
  try {
    const appId = db.pragma('application_id', { simple: true }) as number;
    if (appId === APPLICATION_ID && version(db) === migrations.length) {
      verifyApplied(db, file, migrations, migrations.length);
      return;
    }
    db.transaction(() => {
      // Read again under the write lock: another process may have migrated meanwhile.
      const current = db.pragma('application_id', { simple: true }) as number;
      if (current !== APPLICATION_ID && hasTables(db)) {
        throw unavailable(
          file,
          `this is an SQLite database of another program (application_id ${current}), not a Marquee store. ` +
            'Point Marquee at a new file.',
        );
      }
      const applied = version(db);
      db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      verifyApplied(db, file, migrations, applied);
      const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
      for (let i = applied; i < migrations.length; i++) {
        migrations[i]!.up(db);
        record.run(i + 1, migrations[i]!.name, Date.now());
      }
      db.pragma(`user_version = ${migrations.length}`);
      db.pragma(`application_id = ${APPLICATION_ID}`);
    }).immediate();
  } catch (error) {
    throw storeError(file, error, 'migrating the schema');
  }
}
