/**
 * Upstream connections as counted slots: every session with an open upstream holds one slot in
 * each of its buckets (the relay as a whole: `relay.maxUpstreams`; in hosted mode its source set;
 * its source: a playlist's `maxConnections`, an Xtream account's `max_connections`), and a new
 * upstream is opened only when every bucket has room. A refusal says which limit stopped it and
 * which channels hold its connections, never a URL or an account's credentials.
 */

/** One limit a session counts against. */
export interface Bucket {
  /** Unique among buckets: `all`, `set:…`, `source:…`. */
  readonly key: string;
  readonly max: number;
  /** The limit in words, with the setting that sets it: `this playlist allows 1 connection (livetv.playlists[].maxConnections)`. */
  readonly says: string;
}

export interface SlotHolder {
  /** The channel's name, to tell who holds a connection. */
  readonly channel: string;
  /** True while nobody watches (the holder is waiting out relay.idleSeconds): it may be asked to give its slot up. */
  idle(): boolean;
  /** Close now and give the slot back (an idle holder, to make room); resolves once its connection is closed. */
  release(): Promise<void>;
}

/** Why no slot was given. */
export class LimitRefusal extends Error {
  readonly bucket: Bucket;
  readonly holders: readonly string[];
  constructor(bucket: Bucket, holders: readonly string[]) {
    const names = [...new Set(holders)];
    const held =
      names.length === 0
        ? ''
        : `; in use by ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`;
    super(`${bucket.says}${held}`);
    this.bucket = bucket;
    this.holders = names;
  }
}

export class Slots {
  readonly #held = new Map<string, Set<SlotHolder>>();

  /**
   * Takes a slot in every bucket, making room by closing idle holders (waiting until their
   * connections are closed: a provider counting connections never sees one more); throws
   * LimitRefusal when one is full.
   */
  async take(buckets: readonly Bucket[], holder: SlotHolder): Promise<void> {
    for (const bucket of buckets) {
      const held = this.#held.get(bucket.key);
      if (held === undefined || held.size < bucket.max) continue;
      // Idle sessions (their last viewer left moments ago) give their connection up first.
      const closing: Promise<void>[] = [];
      for (const other of [...held]) {
        if (held.size < bucket.max) break;
        if (other !== holder && other.idle()) closing.push(other.release());
      }
      if (held.size >= bucket.max)
        throw new LimitRefusal(
          bucket,
          [...held].map((h) => h.channel),
        );
      await Promise.all(closing);
    }
    for (const bucket of buckets) {
      // Another holder may have taken the room while the idle one closed.
      const held = this.#held.get(bucket.key);
      if (held !== undefined && held.size >= bucket.max && !held.has(holder)) {
        throw new LimitRefusal(
          bucket,
          [...held].map((h) => h.channel),
        );
      }
    }
    for (const bucket of buckets) {
      let held = this.#held.get(bucket.key);
      if (held === undefined) {
        held = new Set();
        this.#held.set(bucket.key, held);
      }
      held.add(holder);
    }
  }

  /** Gives back every slot `holder` has. */
  give(holder: SlotHolder): void {
    for (const [key, held] of this.#held) {
      held.delete(holder);
      if (held.size === 0) this.#held.delete(key);
    }
  }

  /** Slots held in a bucket now. */
  count(key: string): number {
    return this.#held.get(key)?.size ?? 0;
  }
}
