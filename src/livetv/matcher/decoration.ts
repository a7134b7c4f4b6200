/**
 * What one playlist writes around its names, learned from the playlist itself: whatever repeats
 * at the start or the end of many of its names and is rare in the guides' names is decoration.
 * The shapes (edges.ts) already set aside marks, codes beside marks, tags and styled letters;
 * this finds the rest: a code written with no mark (`CA CBC News Network`), a word set apart by a
 * mark (`SPORT ◉ ESPN`), a panel's own tag (`… NFT`) and bare resolutions (`TRT HABER 1080`).
 *
 * Read per source, so one provider's habits never leak into another's. Two steps: while the
 * guides stream, every word the playlist repeats at its edges is a candidate (the guides are not
 * known yet, so the playlist side wants what any reading could match); once they are read, a
 * candidate is kept only when the guides' names rarely hold it (`BBC` before many names is the
 * brand, `CA` is not a word of any guide name).
 */
import type { Learned, NameEdges } from './edges.js';
import type { GuideWords } from './guide-words.js';
import { readName } from './read-name.js';

/** Least names a word must stand at the edge of, and least share of the playlist's names, to be a candidate. */
export const MIN_NAMES = 3;
export const MIN_SHARE = 0.05;
/** Most share of the guides' channels whose names may hold a learned word... */
export const MAX_GUIDE_SHARE = 0.05;
/** ...which must also be this many times rarer there than at the playlist's edges. */
export const RARER = 10;
/** Least names, and least share of its names, in which a trailing word must stand where tags do to be one. */
export const MIN_APART = 2;
export const APART_SHARE = 0.2;
/** Words learned per edge at most: the most frequent. */
const MAX_WORDS = 12;
/** Prefixes and tags kept for the report. */
const REPORTED = 8;
/** Distinct prefixes and tags counted at most (a playlist of random names could have one each). */
const COUNTED = 2_000;

const NONE: ReadonlySet<string> = new Set();

/** What a playlist was found to write around its names (`import --json`, `status --matches`). */
export interface DecorationReport {
  /** Names read. */
  readonly names: number;
  /** The runs of marks and codes before its names, as written, with how many names have each. */
  readonly prefixes: readonly { readonly text: string; readonly names: number }[];
  /** Tags after its names (digits as `#`: `####p` stands for `1080p` and `2160p`), with how many names have each. */
  readonly tags: readonly { readonly text: string; readonly names: number }[];
  /** The country most of its prefixes name. */
  readonly country?: string;
  /** Words set aside because the playlist repeats them and the guides' names rarely hold them. */
  readonly learned: {
    readonly leading: readonly string[];
    readonly trailing: readonly string[];
    /** Its names end with a bare number shaped like a resolution (`… 1080`), read as a tag. */
    readonly bareResolutions: boolean;
    /** Its names start with a number set apart by a mark (`101 | …`): its own numbering, not a name's. */
    readonly numbering: boolean;
  };
}

function bump(map: Map<string, number>, key: string): void {
  const n = map.get(key);
  if (n !== undefined) map.set(key, n + 1);
  else if (map.size < COUNTED) map.set(key, 1);
}

function top(map: ReadonlyMap<string, number>, n: number): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
}

/** The decoration of one playlist: fed its names, then asked what it learned. */
export class Decoration {
  #names = 0;
  readonly #lead = new Map<string, number>();
  readonly #trail = new Map<string, number>();
  /** Of those, how many stood where tags do (after a tag, or set apart by a mark). */
  readonly #trailApart = new Map<string, number>();
  #numbers = 0;
  /** Names that start with a number set apart by a mark (`101 | …`). */
  #numbered = 0;
  readonly #prefixes = new Map<string, number>();
  readonly #tags = new Map<string, number>();
  readonly #countries = new Map<string, number>();
  /** Per name, in the order added: its edge words that may be learned (for `touches`). */
  readonly #edges: (string | undefined)[] = [];
  #candidate: Learned | undefined | null = null;
  #confirmed: Learned | undefined | null = null;

  get names(): number {
    return this.#names;
  }

  /** Counts the edges of name number `this.names` of the playlist, as `readName` found them. */
  add(edges: NameEdges): void {
    this.#names++;
    for (const tag of edges.tags) bump(this.#tags, tag);
    if (edges.run !== '') bump(this.#prefixes, edges.run.replace(/\s+/g, ' '));
    if (edges.country !== undefined) bump(this.#countries, edges.country);
    if (edges.lead !== undefined) bump(this.#lead, edges.lead);
    if (edges.number) this.#numbers++;
    if (edges.numbered) this.#numbered++;
    if (edges.trail !== undefined) {
      bump(this.#trail, edges.trail);
      if (edges.trailApart) bump(this.#trailApart, edges.trail);
    }
    const any = edges.lead !== undefined || edges.trail !== undefined || edges.number || edges.numbered;
    this.#edges.push(
      any
        ? `${edges.lead ?? ''}\u0000${edges.trail ?? ''}\u0000${edges.number ? '#' : ''}\u0000${edges.numbered ? '#' : ''}`
        : undefined,
    );
    this.#candidate = null;
    this.#confirmed = null;
  }

  /** Counts the edges of `name` (read for nothing else: tests, tools). */
  addName(name: string): void {
    const edges: NameEdges = { run: '', tags: [] };
    readName(name, { edges });
    this.add(edges);
  }

  /** Does a learned reading (`learned`) touch name number `i`? Most names it does not, and they are read once. */
  touches(i: number, learned: Learned | undefined): boolean {
    const edges = this.#edges[i];
    if (learned === undefined || edges === undefined) return false;
    const [lead, trail, number, numbered] = edges.split('\u0000') as [string, string, string, string];
    return (
      (lead !== '' && learned.lead.has(lead)) ||
      (trail !== '' && learned.trail.has(trail)) ||
      (number !== '' && learned.numbers) ||
      (numbered !== '' && learned.numbered === true)
    );
  }

  /**
   * The readings the guides' evidence could leave name number `i` with besides the candidates'
   * own: each part of the candidates that touches it (its first word, its last, its bare
   * resolution, its numbering) kept or taken away, at least one kept and not all.
   */
  variants(i: number): Learned[] {
    const learned = this.candidate();
    const edges = this.#edges[i];
    if (learned === undefined || edges === undefined) return [];
    const [lead, trail, number, numbered] = edges.split('\u0000') as [string, string, string, string];
    const parts = [
      lead !== '' && learned.lead.has(lead),
      trail !== '' && learned.trail.has(trail),
      number !== '' && learned.numbers,
      numbered !== '' && learned.numbered === true,
    ];
    const touching = parts.filter(Boolean).length;
    if (touching < 2) return [];
    const out: Learned[] = [];
    for (let mask = 1; mask < 16; mask++) {
      if ([0, 1, 2, 3].some((b) => mask & (1 << b) && !parts[b])) continue;
      if ([0, 1, 2, 3].filter((b) => mask & (1 << b)).length === touching) continue;
      out.push({
        lead: mask & 1 ? learned.lead : NONE,
        trail: mask & 2 ? learned.trail : NONE,
        numbers: (mask & 4) !== 0,
        numbered: (mask & 8) !== 0,
      });
    }
    return out;
  }

  /**
   * Forgets the edges of the names the candidates do not touch: the guides' evidence can only
   * take candidates away, so those names read as they do without decoration.
   */
  prune(): void {
    const learned = this.candidate();
    for (let i = 0; i < this.#edges.length; i++) if (!this.touches(i, learned)) this.#edges[i] = undefined;
  }

  #enough(count: number): boolean {
    return count >= MIN_NAMES && count >= MIN_SHARE * this.#names;
  }

  /** Every word the playlist repeats at its edges: for the playlist side while the guides stream. */
  candidate(): Learned | undefined {
    if (this.#candidate === null) {
      const pick = (map: Map<string, number>) =>
        new Set(
          top(map, MAX_WORDS)
            .filter(([, n]) => this.#enough(n))
            .map(([w]) => w),
        );
      const lead = pick(this.#lead);
      // A word a playlist ends many names with is a tag when it also stands where tags do in
      // some of them (`… 1080p NFT`, `… [NFT]`): `Radio` ending many names never does.
      const trail = new Set(
        [...pick(this.#trail)].filter((w) => {
          const apart = this.#trailApart.get(w) ?? 0;
          return apart >= MIN_APART && apart >= APART_SHARE * this.#trail.get(w)!;
        }),
      );
      const numbers = this.#enough(this.#numbers);
      const numbered = this.#enough(this.#numbered);
      this.#candidate =
        lead.size > 0 || trail.size > 0 || numbers || numbered ? { lead, trail, numbers, numbered } : undefined;
    }
    return this.#candidate;
  }

  /** The candidates the guides' names rarely hold; a bare number none of them holds. */
  confirm(guide: GuideWords): Learned | undefined {
    if (this.#confirmed !== null) return this.#confirmed;
    const candidate = this.candidate();
    if (candidate === undefined || guide.channels === 0) {
      this.#confirmed = candidate;
      return candidate;
    }
    const parts = (w: string) => w.match(/\p{L}+|\p{N}+/gu) ?? [];
    const asked = new Set<string>();
    for (const w of [...candidate.lead, ...candidate.trail]) for (const part of parts(w)) asked.add(part);
    const counts = guide.counts(asked);
    const rare = (w: string, edge: Map<string, number>) => {
      // A word is in a guide name when all its parts are: the rarest part says how often at most.
      const inGuide = Math.min(...parts(w).map((part) => counts.get(part) ?? 0)) / guide.channels;
      return inGuide <= MAX_GUIDE_SHARE && inGuide * RARER <= (edge.get(w) ?? 0) / this.#names;
    };
    const lead = new Set([...candidate.lead].filter((w) => rare(w, this.#lead)));
    const trail = new Set([...candidate.trail].filter((w) => rare(w, this.#trail)));
    if (lead.size === candidate.lead.size && trail.size === candidate.trail.size && !candidate.numbers) {
      // Every candidate holds: the names read with them are read already.
      this.#confirmed = candidate;
      return candidate;
    }
    const numbered = candidate.numbered === true;
    this.#confirmed =
      lead.size > 0 || trail.size > 0 || candidate.numbers || numbered
        ? {
            lead,
            trail,
            numbers: candidate.numbers,
            numbered,
            ...(candidate.numbers ? { dropsNumber: numberDropper(guide) } : {}),
          }
        : undefined;
    return this.#confirmed;
  }

  /** What was found, once confirmed (or the candidates, before). */
  report(): DecorationReport | undefined {
    const learned = this.#confirmed ?? this.candidate();
    const prefixes = top(this.#prefixes, REPORTED)
      .filter(([, n]) => this.#enough(n))
      .map(([text, names]) => ({ text, names }));
    const tags = top(this.#tags, REPORTED)
      .filter(([, n]) => this.#enough(n))
      .map(([text, names]) => ({ text, names }));
    const [country] = top(this.#countries, 1)[0] ?? [];
    if (prefixes.length === 0 && tags.length === 0 && learned === undefined) return undefined;
    return {
      names: this.#names,
      prefixes,
      tags,
      ...(country !== undefined && this.#enough(this.#countries.get(country)!) ? { country } : {}),
      learned: {
        leading: [...(learned?.lead ?? [])],
        trailing: [...(learned?.trail ?? [])],
        bareResolutions: learned?.numbers ?? false,
        numbering: learned?.numbered ?? false,
      },
    };
  }
}

/** A bare number is a tag unless a guide name holds it as a word (`TV 1000`). */
function numberDropper(guide: GuideWords): (n: string) => boolean {
  return (n) => !guide.numbers.has(n);
}
