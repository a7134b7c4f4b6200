/**
 * Programmes stored as guide days: per guide channel (key) and UTC day, one BLOB of the entries
 * of every programme that belongs to that day, in start order. An entry is
 * `{start},{stop},{n},{video}`: start and stop in epoch ms, then the n bytes of the programme's
 * pre-rendered video fields (rows.ts videoTail). A programme belongs to a day when it ends after
 * the day's first instant and starts before its last (the spec's guide-day rule, protocol/guide-day.ts),
 * so one that runs over midnight is in both days.
 *
 * A guide page is then one indexed read of 100 blobs, written out almost as they are
 * (livetv/guide-json.ts), instead of a range scan that concatenates 4,800 rows per request: the
 * work moves to the import, which writes each programme's text once, as before, only grouped.
 *
 * An import writes a key's entries in parts (`part` increases with each flush of its memory
 * budget); `compactParts` joins them at commit, so readers find one part per key and day.
 */
import { firstGuideDay, GUIDE_DAY_MS } from '../../protocol/index.js';
import type { Connection, Statement } from '../connection.js';

export const DAY = GUIDE_DAY_MS;

const COMMA = 0x2c;

/** Calls `visit` for each entry of `bytes` with its times and where its video lies. */
export function forEachEntry(
  bytes: Uint8Array,
  visit: (start: number, stop: number, offset: number, length: number) => void,
): void {
  let p = 0;
  while (p < bytes.length) {
    let start = 0;
    let negative = bytes[p] === 0x2d;
    if (negative) p++;
    for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) start = start * 10 + c - 48;
    if (negative) start = -start;
    let stop = 0;
    negative = bytes[p] === 0x2d;
    if (negative) p++;
    for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) stop = stop * 10 + c - 48;
    if (negative) stop = -stop;
    let length = 0;
    for (let c = bytes[p++]!; c !== COMMA; c = bytes[p++]!) length = length * 10 + c - 48;
    if (p + length > bytes.length || Number.isNaN(start + stop + length)) {
      throw new Error('corrupt guide day entries');
    }
    visit(start, stop, p, length);
    p += length;
  }
}

/** A programme as an entry holds it. */
export interface StoredProgramme {
  readonly start: number;
  readonly stop: number;
  readonly video: string;
}

/** The programmes in `blobs` (entries of one key, any days), each once, by start. */
export function programmesOf(blobs: readonly Uint8Array[]): StoredProgramme[] {
  const byStart = new Map<number, StoredProgramme>();
  for (const bytes of blobs) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    forEachEntry(buffer, (start, stop, offset, length) => {
      if (!byStart.has(start))
        byStart.set(start, { start, stop, video: buffer.toString('utf8', offset, offset + length) });
    });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/**
 * Bytes of entries held in memory before they are written as parts. They are written straight
 * into one buffer (the texts die young instead of piling up in the JS heap): it bounds an
 * import's memory whatever the guide's order. An entry is at most a few hundred KB (rows.ts LIMITS).
 */
const DEFAULT_ARENA_BYTES = 4 * 1024 * 1024;

/** Room left for an entry's head (`{start},{stop},{length},`: at most 17 + 1 + 17 + 1 + 8 + 1 characters for safe integers). */
const HEAD_ROOM = 64;

/**
 * The import side: programmes added in start order per key are grouped into their days, as
 * bytes in one buffer, and written as parts when it fills (a guide ordered by channel gives one
 * part per key and day; one ordered by time gives several, joined at commit).
 */
export class GuideDayWriter {
  readonly #db: Connection;
  readonly #insert: Statement;
  readonly #arena: Buffer;
  #used = 0;
  /** Key → day → [offset, length, offset, length, ...] of its entries in the arena. */
  readonly #open = new Map<number, Map<number, number[]>>();
  #part = 0;

  constructor(db: Connection, arenaBytes = DEFAULT_ARENA_BYTES) {
    this.#db = db;
    this.#arena = Buffer.allocUnsafeSlow(arenaBytes);
    this.#insert = db.prepare('INSERT INTO guide_days (key_id, day, part, entries) VALUES (?, ?, ?, ?)');
  }

  /** Adds a programme of `keyId`; a key's programmes must come in increasing start order. */
  add(keyId: number, start: number, stop: number, video: string): void {
    let days = this.#open.get(keyId);
    if (days === undefined) {
      days = new Map();
      this.#open.set(keyId, days);
    }
    // Once per day it belongs to (twice for one over midnight), so each day's entries stay one run of bytes.
    for (let day = firstGuideDay(start); day < stop; day += DAY) {
      let at = this.#used;
      let size = this.#writeFast(at, start, stop, video);
      if (size < 0) {
        const length = Buffer.byteLength(video);
        const head = `${start},${stop},${length},`;
        size = head.length + length;
        if (size > this.#arena.length) throw new Error(`a programme of ${size} bytes is larger than the import buffer`);
        if (at + size > this.#arena.length) {
          this.flush();
          days = new Map();
          this.#open.set(keyId, days);
          at = 0;
        }
        this.#arena.write(head, at, 'latin1');
        this.#arena.write(video, at + head.length, length, 'utf8');
      }
      this.#used = at + size;
      const runs = days.get(day);
      if (runs === undefined) days.set(day, [at, size]);
      else if (runs[runs.length - 2]! + runs[runs.length - 1]! === at) runs[runs.length - 1]! += size;
      else runs.push(at, size);
    }
  }

  /**
   * Writes the entry at `at` in one encoding pass when even its largest UTF-8 form fits (three
   * bytes per UTF-16 unit): the video first, HEAD_ROOM bytes on, then the head, whose length
   * digit count is known only then, and the video moved back behind it. Returns its size, or -1
   * when it may not fit (the caller measures it exactly). Saves Buffer.byteLength's pass over
   * every programme's text.
   */
  #writeFast(at: number, start: number, stop: number, video: string): number {
    const arena = this.#arena;
    const from = at + HEAD_ROOM;
    if (from + video.length * 3 > arena.length) return -1;
    const length = arena.write(video, from, 'utf8');
    const head = `${start},${stop},${length},`;
    if (head.length > HEAD_ROOM) return -1;
    arena.write(head, at, 'latin1');
    arena.copyWithin(at + head.length, from, from + length);
    return head.length + length;
  }

  /** Writes what is held in memory as one more part per key and day. */
  flush(): void {
    const part = this.#part++;
    const arena = this.#arena;
    for (const [keyId, days] of this.#open) {
      for (const [day, runs] of days) {
        const bytes =
          runs.length === 2
            ? arena.subarray(runs[0]!, runs[0]! + runs[1]!)
            : Buffer.concat(
                Array.from({ length: runs.length / 2 }, (_, i) =>
                  arena.subarray(runs[2 * i]!, runs[2 * i]! + runs[2 * i + 1]!),
                ),
              );
        this.#insert.run(keyId, day, part, bytes);
      }
    }
    this.#open.clear();
    this.#used = 0;
  }

  /** Removes everything written for `keyId` and returns its programmes, by start (for a key that must be merged). */
  take(keyId: number): StoredProgramme[] {
    const blobs = this.#db
      .prepare('SELECT entries FROM guide_days WHERE key_id = ? ORDER BY day, part')
      .pluck()
      .all(keyId) as Buffer[];
    const days = this.#open.get(keyId);
    if (days !== undefined) {
      // Copies: the arena is reused. Its space is not reclaimed before the next flush.
      for (const runs of days.values()) {
        for (let i = 0; i < runs.length; i += 2)
          blobs.push(Buffer.from(this.#arena.subarray(runs[i]!, runs[i]! + runs[i + 1]!)));
      }
      this.#open.delete(keyId);
    }
    this.#db.prepare('DELETE FROM guide_days WHERE key_id = ?').run(keyId);
    return programmesOf(blobs);
  }

  /** Removes everything written for these keys. */
  drop(keyIds: readonly number[]): void {
    for (const keyId of keyIds) this.#open.delete(keyId);
    if (keyIds.length > 0) {
      this.#db
        .prepare('DELETE FROM guide_days WHERE key_id IN (SELECT value FROM json_each(?))')
        .run(JSON.stringify(keyIds));
    }
  }

  /** Flushes, then joins every key and day written in several parts into one (in part order: start order). */
  finish(): void {
    this.flush();
    compactParts(this.#db);
  }
}

/** Joins the parts of each key and day into one row (part 0). */
export function compactParts(db: Connection): void {
  const split = db
    .prepare('SELECT key_id, day FROM guide_days GROUP BY key_id, day HAVING count(*) > 1')
    .raw()
    .all() as [number, number][];
  if (split.length === 0) return;
  const parts = db.prepare('SELECT entries FROM guide_days WHERE key_id = ? AND day = ? ORDER BY part').pluck();
  const remove = db.prepare('DELETE FROM guide_days WHERE key_id = ? AND day = ?');
  const insert = db.prepare('INSERT INTO guide_days (key_id, day, part, entries) VALUES (?, ?, 0, ?)');
  for (const [keyId, day] of split) {
    const joined = Buffer.concat(parts.all(keyId, day) as Buffer[]);
    remove.run(keyId, day);
    insert.run(keyId, day, joined);
  }
}
