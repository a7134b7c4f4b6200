/**
 * Guide channels whose programmes need the import's rules applied before they can be grouped
 * into guide days: those with programmes from several sources (lower priority numbers win
 * overlaps) and those whose programmes did not come in increasing start order (equal starts:
 * one stays). Their programmes wait in a temporary table of the import connection (a file
 * SQLite deletes with the connection: never in the store, and not held in memory), and are
 * resolved key by key at commit. Keys whose programmes came in order from one source, which is
 * what a guide usually is, never come here.
 */
import type { Connection, Statement } from '../connection.js';
import type { StoredProgramme } from './guide-days.js';

const COLUMNS = 5;
const ROWS_PER_INSERT = 16;

/** A key's programmes after the rules, and how many the overlap rule dropped. */
export interface Resolved {
  readonly kept: StoredProgramme[];
  readonly overlapped: number;
}

interface Row extends StoredProgramme {
  readonly prio: number;
}

export class MergeTable {
  readonly #db: Connection;
  readonly #keys = new Map<number, number>();
  #insertOne: Statement | undefined;
  #insertMany: Statement | undefined;
  /** Prepared by `finish`, once the index exists. */
  #select: Statement | undefined;
  readonly #pending: unknown[] = [];

  constructor(db: Connection) {
    this.#db = db;
  }

  /** True once `keyId` has programmes here: every later one of that key comes here too. */
  has(keyId: number): boolean {
    return this.#keys.has(keyId);
  }

  /** Keys with programmes here and how many rows each has. */
  get keys(): ReadonlyMap<number, number> {
    return this.#keys;
  }

  add(keyId: number, start: number, stop: number, priority: number, video: string): void {
    if (this.#insertOne === undefined) this.#open();
    this.#keys.set(keyId, (this.#keys.get(keyId) ?? 0) + 1);
    this.#pending.push(keyId, start, stop, priority, video);
    if (this.#pending.length === COLUMNS * ROWS_PER_INSERT) {
      this.#insertMany!.run(this.#pending);
      this.#pending.length = 0;
    }
  }

  /** Writes the rows still batched (in order: arrival order is the tie-break). */
  flush(): void {
    for (let at = 0; at < this.#pending.length; at += COLUMNS) {
      this.#insertOne!.run(this.#pending.slice(at, at + COLUMNS));
    }
    this.#pending.length = 0;
  }

  /**
   * The programmes of `keyId` after the rules, by start: of equal starts the best priority stays,
   * then the first added; then a programme is dropped when one of a better priority overlaps it
   * (compared with the programmes as they are after the first rule, not one by one).
   */
  resolve(keyId: number): Resolved {
    const rows = this.#select!.all(keyId) as [number, number, number, string][];
    const list: Row[] = [];
    let maxDuration = 0;
    for (const [start, stop, prio, video] of rows) {
      if (list.length > 0 && list[list.length - 1]!.start === start) continue;
      list.push({ start, stop, prio, video });
      maxDuration = Math.max(maxDuration, stop - start);
    }
    const kept: StoredProgramme[] = [];
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      let hidden = false;
      for (let j = i - 1; !hidden && j >= 0 && list[j]!.start > p.start - maxDuration; j--) {
        const h = list[j]!;
        hidden = h.prio < p.prio && h.stop > p.start;
      }
      for (let j = i + 1; !hidden && j < list.length && list[j]!.start < p.stop; j++) {
        hidden = list[j]!.prio < p.prio;
      }
      if (!hidden) kept.push({ start: p.start, stop: p.stop, video: p.video });
    }
    return { kept, overlapped: list.length - kept.length };
  }

  /** Prepares for `resolve`: the rest written and the key index built (once, from sorted keys). */
  finish(): void {
    if (this.#insertOne === undefined) return;
    this.flush();
    this.#db.exec('CREATE INDEX temp.merging_key ON merging (key_id, start, prio)');
    this.#select = this.#db
      .prepare('SELECT start, stop, prio, video FROM temp.merging WHERE key_id = ? ORDER BY start, prio, rowid')
      .raw();
  }

  /** Drops the table (it would go with the connection anyway). */
  close(): void {
    if (this.#insertOne !== undefined) this.#db.exec('DROP TABLE IF EXISTS temp.merging');
  }

  #open(): void {
    this.#db.exec(`CREATE TEMP TABLE merging (
      key_id INTEGER NOT NULL, start INTEGER NOT NULL, stop INTEGER NOT NULL, prio INTEGER NOT NULL, video TEXT NOT NULL)`);
    const values = `(${Array(COLUMNS).fill('?').join(',')})`;
    this.#insertOne = this.#db.prepare(`INSERT INTO temp.merging VALUES ${values}`);
    this.#insertMany = this.#db.prepare(
      `INSERT INTO temp.merging VALUES ${Array(ROWS_PER_INSERT).fill(values).join(',')}`,
    );
  }
}
