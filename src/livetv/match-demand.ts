/**
 * The playlist side of matching: which guide channels are wanted, and shifted by how much, so
 * that while a guide streams the programmes nobody shows are skipped and shifted copies are made
 * on the way.
 */

import {
  baseId,
  DEFAULT_MATCHING,
  type Matching,
  type MatchSubject,
  type Overrides,
  overrideFor,
  subjectForms,
} from './match-subject.js';
import {
  Decoration,
  type DecorationReport,
  formsOfChannel,
  type GuideWords,
  keyOf,
  type NameEdges,
  type NameForm,
  PlaylistNames,
  readName,
  TokenPool,
} from './matcher/index.js';

/**
 * Shifts wanted under one key: nearly always a single one (no time shift), kept as a number; a
 * Set only when channels under one key differ. A Set per key was 75,000 Sets for a 50,000-entry
 * playlist, held through the whole import.
 */
type Shifts = number | Set<number>;

function addTo<K extends string | number>(map: Map<K, Shifts>, key: K, shift: number): void {
  if (key === '') return;
  const shifts = map.get(key);
  if (shifts === undefined) map.set(key, shift);
  else if (typeof shifts === 'number') {
    if (shifts !== shift) map.set(key, new Set([shifts, shift]));
  } else shifts.add(shift);
}

/**
 * A name as the exact-name rule compares it (trimmed, lower case), hashed to a small integer: the
 * playlist's names are kept for that rule as these numbers, not as 300,000 lower-cased strings
 * (10 MB of a 300,000-entry import's peak, issue 48). Two names of one hash make a guide channel
 * wanted that nobody may show, which costs only its programmes being kept, as the scored stage's
 * optimistic wants already may; about one guide channel in 3,500 against 300,000 names.
 */
function nameHash(name: string): number {
  const text = name.trim().toLowerCase();
  if (text === '') return -1;
  // FNV-1a over the UTF-16 units, in 30 bits (a small integer to V8: no number object per key).
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) & 0x3fffffff;
}

/** Subjects read between two calls of MatchDemand's `collect`. */
const COLLECT_EVERY = 50_000;

/** The playlist side: which guide channels are wanted, and shifted by how much. */
export class MatchDemand {
  readonly #ids = new Map<string, Shifts>();
  /** The exact-name rule's names, by nameHash. */
  readonly #names = new Map<number, Shifts>();
  readonly #keys = new Map<string, Shifts>();
  readonly #overrides = new Map<string, Shifts>();
  readonly #subjects: readonly MatchSubject[];
  /** The subjects no override decides (1), which the scored stage may match. */
  readonly #open: Uint8Array;
  /** Some channel has a time shift: a guide channel found by an exact rule may still be wanted with another. */
  #anyShift = false;
  readonly #matching: Matching;
  /**
   * The playlist's names indexed for the scored stage. The channels without a tvg-id, which only
   * their names can find, are read into it at once (their names read once for the exact keys,
   * the scored stage and the final resolve); the others when a guide channel first needs them.
   * An import whose channels all have tvg-ids the guides know never holds their names read: what
   * the import holds while guides stream is what V8 scales the garbage it lets pile up by, and
   * 25,000 names read were 10 MB more of it.
   */
  #scored: PlaylistNames | undefined;
  /** Which subjects the index holds besides those read at once: the open ones, or all. */
  #filled: 'open' | 'all' | undefined;
  /** What each playlist (by source) writes around its names (matcher/decoration.ts). */
  readonly #decorations = new Map<string, Decoration>();
  /** Per subject, its name's number in its playlist's decoration (-1: not learned from). */
  readonly #nameAt: Int32Array;

  /**
   * `collect`, when given, is called every COLLECT_EVERY subjects read: reading a large
   * playlist's names leaves much garbage on its way to the index (300,000 names: 100 MB beside
   * the 140 MB kept), and an import that bounds its memory collects it (issue 48). Once more
   * before the decorated names are read, and not while they are: collections every 50,000 there
   * freed a few MB each, for 80-100 ms apiece.
   */
  constructor(
    subjects: readonly MatchSubject[],
    overrides: Overrides,
    matching: Matching = DEFAULT_MATCHING,
    collect?: () => void,
  ) {
    this.#subjects = subjects;
    this.#matching = matching;
    this.#nameAt = new Int32Array(subjects.length).fill(-1);
    this.#open = new Uint8Array(subjects.length);
    const pool = matching.scored ? new TokenPool() : undefined;
    for (const [i, s] of subjects.entries()) {
      if (collect !== undefined && i > 0 && i % COLLECT_EVERY === 0) collect();
      const target = overrideFor(s, overrides);
      this.#open[i] = target === undefined ? 1 : 0;
      if (s.shiftHours !== 0) this.#anyShift = true;
      if (target !== undefined) {
        // An override decides: its channel alone is wanted, or none for `null`.
        if (target !== null) addTo(this.#overrides, target, s.shiftHours);
        continue;
      }
      if (s.tvgId !== undefined) addTo(this.#ids, baseId(s.tvgId), s.shiftHours);
      for (const name of [s.tvgName, s.name]) {
        if (name === undefined) continue;
        const h = nameHash(name);
        if (h >= 0) addTo(this.#names, h, s.shiftHours);
      }
      // The name's edges, collected as it is read, for its playlist's decoration.
      const edges: NameEdges | undefined = matching.decoration ? { run: '', tags: [] } : undefined;
      if (pool !== undefined && s.tvgId === undefined) {
        this.#scored ??= new PlaylistNames(matching.threshold, subjects.length);
        // Its keys are wanted through the index (shiftsFor): not kept a second time in #keys,
        // a map of 300,000 names' keys (14 MB of table) for a playlist of 300,000 (issue 48).
        for (const form of subjectForms(s, pool, undefined, edges)) this.#scored.add(i, form);
      } else {
        // A tvg-name equal to the name (as panels write them) is read once.
        for (const name of s.tvgName === s.name ? [s.name] : [s.tvgName, s.name]) {
          if (name === undefined) continue;
          const r = readName(name, edges !== undefined && name === s.name ? { edges } : {});
          if (r.tokens.length > 0) addTo(this.#keys, keyOf(r.tokens, r.shift), s.shiftHours);
        }
      }
      if (edges !== undefined) this.#learn(i, s, edges);
    }
    if (matching.decoration) {
      collect?.();
      this.#readDecorated(pool);
    }
  }

  /** Counts subject `i`'s edges in its playlist's decoration. */
  #learn(i: number, s: MatchSubject, edges: NameEdges): void {
    const source = s.source ?? '';
    let decoration = this.#decorations.get(source);
    if (decoration === undefined) {
      decoration = new Decoration();
      this.#decorations.set(source, decoration);
    }
    this.#nameAt[i] = decoration.names;
    decoration.add(edges);
  }

  /** Subject `i`'s playlist's decoration and its name's number in it, when it was learned from. */
  #decorationOf(i: number): { decoration: Decoration; at: number } | undefined {
    const at = this.#nameAt[i]!;
    if (at < 0) return undefined;
    return { decoration: this.#decorations.get(this.#subjects[i]!.source ?? '')!, at };
  }

  /**
   * The names a playlist's candidate decoration touches, read once more without it: while the
   * guides stream nobody knows yet which candidates the guides' names will hold, so a guide
   * channel either reading could match is wanted.
   */
  #readDecorated(pool: TokenPool | undefined): void {
    for (const [i, s] of this.#subjects.entries()) {
      const found = this.#decorationOf(i);
      if (found === undefined) continue;
      const learned = found.decoration.candidate();
      if (!found.decoration.touches(found.at, learned)) continue;
      const indexed = pool !== undefined && s.tvgId === undefined;
      const plain = indexed ? this.#scored!.formsOf(i) : undefined;
      for (const form of subjectForms(s, pool, learned)) {
        if (plain?.some((f) => f.key === form.key)) continue;
        if (indexed) this.#scored!.add(i, form, true);
        else addTo(this.#keys, form.key, s.shiftHours);
      }
      // The guides may confirm part of what touches it: those readings are wanted by key too.
      for (const variant of found.decoration.variants(found.at)) {
        for (const form of subjectForms(s, undefined, variant)) addTo(this.#keys, form.key, s.shiftHours);
      }
    }
    for (const decoration of this.#decorations.values()) decoration.prune();
  }

  /**
   * What each playlist was found to write around its names, confirmed against the guides'
   * names `guide` (by source, for the import's report).
   */
  decorations(guide: GuideWords): Map<string, DecorationReport> {
    const out = new Map<string, DecorationReport>();
    for (const [source, decoration] of this.#decorations) {
      decoration.confirm(guide);
      const report = decoration.report();
      if (report !== undefined) out.set(source, report);
    }
    return out;
  }

  /**
   * Channel `i`'s names as its playlist's decoration reads them, once the guides' names `guide`
   * have confirmed it; undefined when it reads them as they read without it.
   */
  learnedFormsOf(i: number, guide: GuideWords): NameForm[] | undefined {
    const found = this.#decorationOf(i);
    if (found === undefined) return undefined;
    const { decoration, at } = found;
    const learned = decoration.confirm(guide);
    if (!decoration.touches(at, learned)) return undefined;
    if (learned === decoration.candidate()) {
      const indexed = this.#scored?.formsOf(i, true);
      if (indexed !== undefined) return indexed;
    }
    const s = this.#subjects[i]!;
    const plain = this.formsOf(i) ?? subjectForms(s);
    const forms = subjectForms(s, undefined, learned).filter((f) => !plain.some((p) => p.key === f.key));
    return forms.length > 0 ? forms : undefined;
  }

  /**
   * The playlist channel (by number) whose names come closest to the guide names `forms`, scoring
   * at least `floor`: what a guide that matched nothing came closest to.
   */
  closest(forms: readonly NameForm[], floor: number): { subject: number; score: number } | undefined {
    return this.#playlist(true).closest(forms, floor);
  }

  /**
   * Shifts of the channels that could show guide channel `id` (empty: nobody wants it), whose
   * display names are `displayNames` (read as `forms`).
   */
  shiftsFor(
    id: string,
    displayNames?: readonly string[],
    forms: readonly NameForm[] = formsOfChannel(displayNames ?? []),
  ): ReadonlySet<number> {
    const out = new Set<number>();
    const add = (shifts: Shifts | undefined) => {
      if (typeof shifts === 'number') out.add(shifts);
      else if (shifts) for (const s of shifts) out.add(s);
    };
    add(this.#overrides.get(id));
    add(this.#ids.get(baseId(id)));
    if (displayNames === undefined || displayNames.length === 0) return out;
    for (const name of displayNames) add(this.#names.get(nameHash(name)));
    for (const form of forms) {
      add(this.#keys.get(form.key));
      this.#indexedShifts(form.key, out);
    }
    // Wanted already, and with no shift anywhere: what the scored stage could add changes nothing.
    if (!this.#matching.scored || (out.size > 0 && !this.#anyShift)) return out;
    this.#playlist(false).wanting(forms, (s) => out.add(this.#subjects[s]!.shiftHours));
    return out;
  }

  /** Adds to `out` the shifts of the open channels the scored stage's index holds under `key`. */
  #indexedShifts(key: string, out: Set<number>): void {
    const found = this.#scored?.subjectsWith(key);
    if (found === undefined) return;
    for (const s of typeof found === 'number' ? [found] : found) {
      if (this.#open[s] !== 1) continue;
      out.add(this.#subjects[s]!.shiftHours);
      // With no shift anywhere, one channel says all there is to say.
      if (!this.#anyShift) return;
    }
  }

  /**
   * Channel `i`'s names as read, when the scored stage's index holds them (so the final resolve
   * need not read them again).
   */
  formsOf(i: number): NameForm[] | undefined {
    return this.#scored?.formsOf(i);
  }

  /** The playlist's names indexed: those the scored stage may match, or for `closest` every one. */
  #playlist(all: boolean): PlaylistNames {
    this.#scored ??= new PlaylistNames(this.#matching.threshold, this.#subjects.length);
    const scored = this.#scored;
    if (this.#filled === 'all' || (this.#filled === 'open' && !all)) return scored;
    const pool = new TokenPool();
    for (const [i, s] of this.#subjects.entries()) {
      if (!(all || this.#open[i] === 1) || scored.formsOf(i) !== undefined) continue;
      const plain = subjectForms(s, pool);
      for (const form of plain) scored.add(i, form);
      const found = this.#decorationOf(i);
      const learned = found?.decoration.candidate();
      if (found === undefined || !found.decoration.touches(found.at, learned)) continue;
      for (const form of subjectForms(s, pool, learned)) {
        if (!plain.some((f) => f.key === form.key)) scored.add(i, form, true);
      }
    }
    this.#filled = all ? 'all' : 'open';
    return scored;
  }
}
