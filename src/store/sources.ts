/**
 * Per-source state: what each configured source (a playlist, a guide, a library file) last
 * contributed when it was good, a copy of that input, and how its latest attempt went. A
 * backend rebuilds its whole area from every source at each import; a source that goes bad is
 * then rebuilt from its last good copy instead, so it keeps serving what it served. States and
 * copies are written inside the area's import transaction (commit), so the served data, the
 * states and the copies always agree, and a crash leaves all three as they were.
 */
import { createHash } from 'node:crypto';
import type { Connection } from './connection.js';

/**
 * How a source's latest attempt went:
 * - `imported`: read and judged good; what it holds now is served and its copy replaced.
 * - `unchanged`: answered "not modified"; its last good copy is served.
 * - `kept`: unreadable, not its format, empty or shrunk; its last good copy is served.
 * - `none`: bad, and it never imported well: it contributes nothing.
 */
export type SourceOutcome = 'imported' | 'unchanged' | 'kept' | 'none';

/** What a source yields, by what it holds (`channels`, `programmes`, `items`...). */
export type SourceCounts = Readonly<Record<string, number>>;

/** The outcome of one source in one import, as the backend judged it. */
export interface SourceAttempt {
  /** `sourceKey(kind, location)`: stable across imports, and holds no secret. */
  readonly key: string;
  /** `playlist`, `guide`, `library`... */
  readonly kind: string;
  /** The location with credentials redacted: safe to show. */
  readonly label: string;
  readonly outcome: SourceOutcome;
  /** Why it was kept or contributes nothing. */
  readonly reason?: string;
  /** `imported` / `unchanged`: what it yields now (becomes its last good counts). */
  readonly counts?: SourceCounts;
  /**
   * `imported`: the bytes to read it back from if it goes bad later (the backend's choice of
   * encoding; chunks of any size). Without one the source keeps its previous copy.
   */
  readonly copy?: Iterable<Uint8Array>;
}

/** A source's state as stored. */
export interface SourceState {
  readonly key: string;
  /** The import kind that owns it: `livetv`, `library`. */
  readonly area: string;
  readonly kind: string;
  readonly label: string;
  /** Its position among the area's sources at the latest attempt. */
  readonly position: number;
  /** When it last imported well (epoch ms); undefined when it never did. */
  readonly goodAt?: number;
  /** What it yielded then. */
  readonly goodCounts?: SourceCounts;
  /** Size of its last good copy, in bytes as stored; undefined when there is none. */
  readonly copyBytes?: number;
  readonly attemptAt?: number;
  readonly outcome?: SourceOutcome;
  readonly reason?: string;
  /** Start of the current run of `kept` / `none` outcomes; undefined while it is good. */
  readonly keptSince?: number;
}

/** Rows of a copy: 1 MiB each, so no copy is ever whole in memory, written or read. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The key of the source of `kind` at `location`: a hash, so the table never holds the
 * credentials a URL may carry.
 * @example sourceKey('guide', 'https://u:p@x.example/epg.xml') // 'guide:5f0c…'
 */
export function sourceKey(kind: string, location: string): string {
  return `${kind}:${createHash('sha256').update(location).digest('hex').slice(0, 32)}`;
}

/**
 * Records `attempts` (every source of `area`, in order) inside the caller's transaction. With
 * `prune`, states and copies of sources no longer among them go: the caller is committing a
 * rebuild of the whole area from exactly these sources.
 */
export function writeSourceStates(
  db: Connection,
  area: string,
  attempts: readonly SourceAttempt[],
  now: number,
  options: { readonly prune: boolean },
): void {
  const existing = db.prepare('SELECT key, kept_since FROM source_states WHERE area = ?').raw().all(area) as [
    string,
    number | null,
  ][];
  const keptSince = new Map(existing.map(([key, since]) => [key, since]));
  const upsert = db.prepare(`
    INSERT INTO source_states (key, area, kind, label, position, attempt_at, outcome, reason, kept_since)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET area = excluded.area, kind = excluded.kind, label = excluded.label,
      position = excluded.position, attempt_at = excluded.attempt_at, outcome = excluded.outcome,
      reason = excluded.reason, kept_since = excluded.kept_since`);
  const good = db.prepare('UPDATE source_states SET good_at = ?, good_counts = ? WHERE key = ?');
  const seen = new Set<string>();
  attempts.forEach((a, position) => {
    seen.add(a.key);
    const bad = a.outcome === 'kept' || a.outcome === 'none';
    const since = bad ? (keptSince.get(a.key) ?? now) : null;
    upsert.run(a.key, area, a.kind, a.label, position, now, a.outcome, a.reason ?? null, since);
    if (!bad) good.run(now, JSON.stringify(a.counts ?? {}), a.key);
    if (a.outcome === 'imported' && a.copy !== undefined) replaceCopy(db, a.key, a.copy);
  });
  if (options.prune) {
    for (const [key] of existing) {
      if (seen.has(key)) continue;
      db.prepare('DELETE FROM source_copies WHERE key = ?').run(key);
      db.prepare('DELETE FROM source_states WHERE key = ?').run(key);
    }
  }
}

/** Replaces the copy of `key` with `chunks`, re-cut into rows of CHUNK_BYTES. */
function replaceCopy(db: Connection, key: string, chunks: Iterable<Uint8Array>): void {
  db.prepare('DELETE FROM source_copies WHERE key = ?').run(key);
  const insert = db.prepare('INSERT INTO source_copies (key, seq, data) VALUES (?, ?, ?)');
  const hash = createHash('sha256');
  let seq = 0;
  let bytes = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pendingBytes === 0) return;
    insert.run(key, seq++, pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  for (const chunk of chunks) {
    let piece = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    hash.update(piece);
    bytes += piece.length;
    while (piece.length > 0) {
      const take = Math.min(piece.length, CHUNK_BYTES - pendingBytes);
      // Copy: the caller may reuse its buffer once the iterator moves on.
      pending.push(Buffer.from(piece.subarray(0, take)));
      pendingBytes += take;
      piece = piece.subarray(take);
      if (pendingBytes === CHUNK_BYTES) flush();
    }
  }
  flush();
  db.prepare('UPDATE source_states SET copy_bytes = ?, copy_sha256 = ? WHERE key = ?').run(
    bytes,
    hash.digest('hex'),
    key,
  );
}

type StateRow = [
  string,
  string,
  string,
  string,
  number,
  number | null,
  string | null,
  number | null,
  number | null,
  string | null,
  string | null,
  number | null,
];

function stateOf(r: StateRow): SourceState {
  const [key, area, kind, label, position, goodAt, goodCounts, copyBytes, attemptAt, outcome, reason, keptSince] = r;
  return {
    key,
    area,
    kind,
    label,
    position,
    ...(goodAt !== null ? { goodAt } : {}),
    ...(goodCounts !== null ? { goodCounts: JSON.parse(goodCounts) as SourceCounts } : {}),
    ...(copyBytes !== null ? { copyBytes } : {}),
    ...(attemptAt !== null ? { attemptAt } : {}),
    ...(outcome !== null ? { outcome: outcome as SourceOutcome } : {}),
    ...(reason !== null ? { reason } : {}),
    ...(keptSince !== null ? { keptSince } : {}),
  };
}

/** Reads of the source tables on one connection, statements prepared once. */
export function sourceReads(db: Connection) {
  const columns =
    'key, area, kind, label, position, good_at, good_counts, copy_bytes, attempt_at, outcome, reason, kept_since';
  const all = db.prepare(`SELECT ${columns} FROM source_states ORDER BY area, position`).raw();
  const byArea = db.prepare(`SELECT ${columns} FROM source_states WHERE area = ? ORDER BY position`).raw();
  const digest = db.prepare('SELECT copy_sha256 FROM source_states WHERE key = ?').pluck();
  const chunk = db.prepare('SELECT data FROM source_copies WHERE key = ? AND seq = ?').pluck();
  return {
    /** The state of every source of `area` (every area when omitted), in order. */
    sourceStates(area?: string): SourceState[] {
      const rows = (area === undefined ? all.all() : byArea.all(area)) as StateRow[];
      return rows.map(stateOf);
    },
    /**
     * The last good copy of source `key`, a chunk at a time (each chunk read when asked for, so a
     * large copy is never whole in memory); empty when there is none. Throws STORE_UNAVAILABLE
     * naming the source when the copy does not match its recorded digest.
     */
    *sourceCopy(key: string): Generator<Buffer> {
      const expected = digest.get(key) as string | null | undefined;
      if (expected === undefined || expected === null) return;
      const hash = createHash('sha256');
      for (let seq = 0; ; seq++) {
        const data = chunk.get(key, seq) as Buffer | undefined;
        if (data === undefined) break;
        hash.update(data);
        yield data;
      }
      if (hash.digest('hex') !== expected) throw new Error(`the stored copy of source ${key} is damaged`);
    },
  };
}

export type SourceReads = ReturnType<typeof sourceReads>;
