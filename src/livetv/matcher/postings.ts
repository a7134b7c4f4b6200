/**
 * An inverted index of names by what a name can be aligned on: its tokens, their loose
 * spellings, and the joins of two or three adjacent tokens (so `RecordTV` finds `Record TV` and
 * the other way round). Built once, when all its names are known (the playlist's before the
 * guides stream, the guides' once they are read), as typed arrays: each key's hash once, in a
 * table of open addressing, and the names of each key in a run of one array: no string and no
 * object per key. A Map of a string and a list per key held some
 * 200,000 keys for a 25,000-channel playlist, and V8, scaling the garbage it lets pile up with
 * what a heap holds, let the benchmark import's heap grow to 255 MB instead of 74 MB. Two keys
 * of one hash make a probe visit a name more: the scorer then finds nothing in it.
 */
import { loose, markAt, type NameForm, weightAt } from './form.js';

/** Name numbers fit in this many bits of an entry; the key's hash takes the 32 above. */
const NAME_BITS = 21;
const NAME_LIMIT = 2 ** NAME_BITS;

/** Reaches an index remembers at most (three look-ups each). */
const REACHED = 20_000;

/** Key kinds, mixed into the hash: a token, a loose spelling, a join. */
const TOKEN = 1;
const LOOSE = 2;
const JOIN = 3;

export class Postings {
  /** The distinct key hashes, in order; names of hash `#keys[k]` are `#names[#starts[k]..#starts[k + 1]]`. */
  readonly #keys: Uint32Array;
  readonly #starts: Uint32Array;
  readonly #names: Uint32Array;
  /** Open addressing over the distinct hashes: slot → index into #keys, -1 empty; a power of two long. */
  readonly #slots: Int32Array;
  readonly #shift: number;
  /** Reaches already counted, by token: the names of a playlist or guide share most of their words. */
  readonly #reached = new Map<string, number>();

  /** Indexes names 0..n-1 (`forms[n]`), at most 2^21 of them. */
  constructor(forms: readonly NameForm[]) {
    const count = Math.min(forms.length, NAME_LIMIT);
    const keys: number[] = [];
    for (let n = 0; n < count; n++) {
      const t = forms[n]!.tokens;
      for (let i = 0; i < t.length; i++) {
        keys.push(entry(hash(TOKEN, t[i]!), n));
        const l = loose(t[i]!);
        if (l !== '') keys.push(entry(hash(LOOSE, l), n));
        if (i + 1 < t.length) {
          keys.push(entry(hash(JOIN, t[i]!, t[i + 1]!), n));
          if (i + 2 < t.length) keys.push(entry(hash(JOIN, t[i]!, t[i + 1]!, t[i + 2]!), n));
        }
      }
    }
    const entries = Float64Array.from(keys).sort();
    keys.length = 0;
    // Sorted, each hash's names are a run: one copy of the hash per run, the names on their own.
    let distinct = 0;
    for (let k = 0; k < entries.length; k++) {
      if (k === 0 || Math.floor(entries[k]! / NAME_LIMIT) !== Math.floor(entries[k - 1]! / NAME_LIMIT)) distinct++;
    }
    this.#keys = new Uint32Array(distinct);
    this.#starts = new Uint32Array(distinct + 1);
    this.#names = new Uint32Array(entries.length);
    let d = -1;
    for (let k = 0; k < entries.length; k++) {
      const h = Math.floor(entries[k]! / NAME_LIMIT);
      if (d < 0 || this.#keys[d] !== h) {
        d++;
        this.#keys[d] = h;
        this.#starts[d] = k;
      }
      this.#names[k] = entries[k]! % NAME_LIMIT;
    }
    this.#starts[distinct] = entries.length;
    let bits = 4;
    while (1 << bits < distinct * 2) bits++;
    this.#shift = 32 - bits;
    this.#slots = new Int32Array(1 << bits).fill(-1);
    for (let k = 0; k < distinct; k++) {
      let slot = this.#slotOf(this.#keys[k]!);
      while (this.#slots[slot] !== -1) slot = (slot + 1) & (this.#slots.length - 1);
      this.#slots[slot] = k;
    }
  }

  /** How many names a probe of token `i` of `form` reaches at most (to probe the rarest first). */
  reach(form: NameForm, i: number): number {
    const t = form.tokens[i]!;
    let r = this.#reached.get(t);
    if (r === undefined) {
      const l = loose(t);
      r = this.#count(hash(TOKEN, t)) + this.#count(hash(JOIN, t)) + (l === '' ? 0 : this.#count(hash(LOOSE, l)));
      if (this.#reached.size >= REACHED) this.#reached.clear();
      this.#reached.set(t, r);
    }
    return r;
  }

  /**
   * Calls `visit` with every name that could align token `i` of `form`: the same token, its loose
   * spelling, a join equal to it, or a token equal to its join with a neighbour; until `visit`
   * returns true (it has seen enough). Returns whether it was stopped.
   */
  probe(form: NameForm, i: number, visit: (n: number) => boolean | undefined): boolean {
    const t = form.tokens;
    const token = t[i]!;
    const l = loose(token);
    const before = i > 0 ? t[i - 1]! : undefined;
    const after = i + 1 < t.length ? t[i + 1]! : undefined;
    return (
      this.#each(hash(TOKEN, token), visit) ||
      this.#each(hash(JOIN, token), visit) ||
      (l !== '' && this.#each(hash(LOOSE, l), visit)) ||
      // The joins this token is part of, against single tokens of the other names.
      (before !== undefined &&
        (this.#each(hash(TOKEN, before, token), visit) ||
          (i > 1 && this.#each(hash(TOKEN, t[i - 2]!, before, token), visit)) ||
          (after !== undefined && this.#each(hash(TOKEN, before, token, after), visit)))) ||
      (after !== undefined &&
        (this.#each(hash(TOKEN, token, after), visit) ||
          (i + 2 < t.length && this.#each(hash(TOKEN, token, after, t[i + 2]!), visit)))) ||
      false
    );
  }

  #slotOf(h: number): number {
    return Math.imul(h, 0x9e3779b1) >>> this.#shift;
  }

  /** The index of hash `h` in #keys, or -1. */
  #find(h: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = this.#slotOf(h); ; slot = (slot + 1) & mask) {
      const k = this.#slots[slot]!;
      if (k === -1 || this.#keys[k] === h) return k;
    }
  }

  #count(h: number): number {
    const k = this.#find(h);
    return k === -1 ? 0 : this.#starts[k + 1]! - this.#starts[k]!;
  }

  /** Visits the names of hash `h` until `visit` returns true; returns whether it did. */
  #each(h: number, visit: (n: number) => boolean | undefined): boolean {
    const k = this.#find(h);
    if (k === -1) return false;
    const names = this.#names;
    for (let at = this.#starts[k]!, end = this.#starts[k + 1]!; at < end; at++) if (visit(names[at]!)) return true;
    return false;
  }
}

function entry(h: number, n: number): number {
  return h * NAME_LIMIT + n;
}

/**
 * FNV-1a of `kind` and the UTF-16 units of `a`, `b` and `c` one after the other (a join without
 * joining), as an unsigned 32-bit number.
 */
function hash(kind: number, a: string, b = '', c = ''): number {
  return fnv(fnv(fnv((0x811c9dc5 ^ kind) >>> 0, a), b), c) >>> 0;
}

function fnv(start: number, text: string): number {
  let h = start;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/**
 * The tokens of `form` to probe so that every name scoring at least the bound shares one of
 * them: the rarest first, until the weight left unprobed could not reach `share` of the name's
 * weight on its own. `extra(i)` is what token `i` weighs when unaligned (its least, for a bound
 * that holds whatever the guide says). Numbers are probed only when `marks` (a match must have
 * the same numbers); otherwise they count as unaligned from the start.
 */
export function probeSet(
  form: NameForm,
  share: number,
  reach: (i: number) => number,
  extra: (i: number) => number,
  marks: boolean,
): number[] {
  const order: number[] = [];
  let rest = 0;
  let probed = 0;
  for (let i = 0; i < form.tokens.length; i++) {
    if (!marks && markAt(form, i)) probed += weightAt(form, i);
    else {
      order.push(i);
      rest += weightAt(form, i);
    }
  }
  const reached = order.map((i) => reach(i));
  const byReach = order.map((_, k) => k).sort((a, b) => reached[a]! - reached[b]!);
  const probes: number[] = [];
  for (const k of byReach) {
    // Unaligned, the probed tokens weigh at least `probed`; aligned, the others at most `rest`.
    if (probed > 0 && probed / (rest + probed) > 1 - share) break;
    const i = order[k]!;
    // A word that costs nothing unaligned (a guide name's `East`) cannot bound anything.
    if (extra(i) === 0) continue;
    probes.push(i);
    probed += extra(i);
    rest -= weightAt(form, i);
  }
  return probes;
}
