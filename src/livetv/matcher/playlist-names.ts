/**
 * The playlist side of name matching, known before any guide is read: every playlist channel's
 * names, read and indexed. While a guide streams, it answers for each guide channel "could any
 * playlist channel score at least the threshold with one of its display names?" (and which), so
 * the programmes of guide channels nobody could show are skipped as they come.
 *
 * It asks whether a channel *could* match: with the most favourable reading of what the guide
 * will say (no variants, any dial number left out), so that a channel the scored stage chooses
 * once every guide is read always had its programmes kept.
 */
import { stationTokens } from './call-sign.js';
import { type NameForm, timeFeedAt, weightAt } from './form.js';
import { Postings, probeSet } from './postings.js';
import { OPTIMISTIC, Scorer } from './score.js';

const NONE: ReadonlySet<string> = new Set();
/**
 * Playlist names scored per guide name at most, the rarest probes first: names that share words
 * with every guide channel cost each guide channel no more than this (the guide side's bound is
 * guide-names.ts's MAX_SCORED).
 */
const MAX_SCORED = 2_000;
/** Form slots per subject: two names as read, two as read with the playlist's decoration. */
const SLOTS = 4;

export class PlaylistNames {
  readonly #threshold: number;
  /** Distinct forms, each with the subjects (playlist channel numbers) that have it: one, or a list. */
  readonly #forms: NameForm[] = [];
  readonly #subjects: (number | number[])[] = [];
  readonly #byKey = new Map<string, number>();
  /**
   * Per subject, the numbers of its forms (-1 for none): two slots for its names as read, two for
   * them as its playlist's learned decoration reads them (decoration.ts). Its names read once only.
   */
  #bySubject: Int32Array;
  /** By slot, a subject's own form where the indexed one of its key names another country. */
  readonly #own = new Map<number, NameForm>();
  /** Built on first use, once every playlist channel has been added. */
  #postings: Postings | undefined;
  readonly #scorer = new Scorer();
  #seen = new Int32Array(64);
  #search = 0;

  /** `subjects`: how many playlist channels there are (numbered from 0). */
  constructor(threshold: number, subjects = 0) {
    this.#threshold = threshold;
    this.#bySubject = new Int32Array(subjects * SLOTS).fill(-1);
  }

  /**
   * Records that playlist channel `subject` has a name read as `form` (at most two per subject,
   * and two more as its playlist's decoration reads them: `learned`).
   */
  add(subject: number, form: NameForm, learned = false): void {
    if (form.tokens.length === 0) return;
    let n = this.#byKey.get(form.key);
    if (n === undefined) {
      n = this.#forms.length;
      this.#forms.push(form);
      this.#subjects.push(subject);
      this.#byKey.set(form.key, n);
      this.#postings = undefined;
      this.#remember(subject, n, learned);
      return;
    }
    const slot = this.#remember(subject, n, learned);
    // One form per key is indexed; a name that reads the same with another prefix's country
    // (`|UK| Sky News`, `|US| Sky News`) keeps its own, for the hints that break ties.
    if (slot >= 0 && this.#forms[n]!.country !== form.country) this.#own.set(slot, form);
    const list = this.#subjects[n]!;
    if (typeof list === 'number') {
      if (list !== subject) this.#subjects[n] = [list, subject];
    } else if (list[list.length - 1] !== subject) list.push(subject);
  }

  /** The playlist channels (one, or a list) that have a name read with key `key`, when any do. */
  subjectsWith(key: string): number | readonly number[] | undefined {
    const n = this.#byKey.get(key);
    return n === undefined ? undefined : this.#subjects[n];
  }

  /**
   * Playlist channel `subject`'s names as read (or, `learned`, as its playlist's decoration reads
   * them), in the order added; undefined when none was added.
   */
  formsOf(subject: number, learned = false): NameForm[] | undefined {
    const at = subject * SLOTS + (learned ? 2 : 0);
    const first = this.#bySubject[at];
    if (first === undefined || first === -1) return undefined;
    const second = this.#bySubject[at + 1]!;
    const form = (slot: number, n: number) => this.#own.get(slot) ?? this.#forms[n]!;
    return second === -1 ? [form(at, first)] : [form(at, first), form(at + 1, second)];
  }

  /** Records form `n` in one of `subject`'s slots; returns the slot, or -1 (it had it, or no slot is free). */
  #remember(subject: number, n: number, learned: boolean): number {
    const at = subject * SLOTS + (learned ? 2 : 0);
    if (at + 1 >= this.#bySubject.length) return -1;
    if (this.#bySubject[at] === -1) {
      this.#bySubject[at] = n;
      return at;
    }
    if (this.#bySubject[at] !== n && this.#bySubject[at + 1] === -1) {
      this.#bySubject[at + 1] = n;
      return at + 1;
    }
    return -1;
  }

  /**
   * The playlist channel closest to the guide names `forms` (at least `floor`), with its score:
   * to say what a guide that matched nothing came closest to.
   */
  closest(forms: readonly NameForm[], floor: number): { subject: number; score: number } | undefined {
    let best: { subject: number; score: number } | undefined;
    this.#scoring(forms, floor, (s, score) => {
      if (best === undefined || score > best.score) best = { subject: typeof s === 'number' ? s : s[0]!, score };
    });
    return best;
  }

  /**
   * Calls `visit` with each playlist channel that could score at least the threshold with one of
   * the guide names `forms` (a channel may be visited more than once).
   */
  wanting(forms: readonly NameForm[], visit: (subject: number) => void): void {
    this.#scoring(forms, this.#threshold, (s) => {
      if (typeof s === 'number') visit(s);
      else for (const one of s) visit(one);
    });
  }

  /**
   * Calls `found` with the channel (or channels) of each playlist name that scores at least
   * `floor` with one of the guide names `forms`, once per guide name, found through the index.
   */
  #scoring(
    forms: readonly NameForm[],
    floor: number,
    found: (subjects: number | readonly number[], score: number) => void,
  ): void {
    if (this.#forms.length === 0) return;
    if (this.#seen.length < this.#forms.length) this.#seen = new Int32Array(this.#forms.length * 2);
    this.#postings ??= new Postings(this.#forms);
    const postings = this.#postings;
    for (const g of forms) {
      if (g.tokens.length === 0) continue;
      // Each name of the guide channel scores the playlist's names afresh (`Russia 24` finds
      // nothing in `Россия 24 (Благовещенск)` that `Россия 24` does).
      const stamp = ++this.#search;
      // The score is at most covG: the guide name's unprobed weight alone must fall short of it.
      const probes = probeSet(
        g,
        floor,
        (i) => postings.reach(g, i),
        (i) => guideExtra(g, i),
        true,
      );
      if (g.call !== undefined) probes.push(...stationTokens(g, NONE));
      let scored = 0;
      for (const i of probes) {
        const stopped = postings.probe(g, i, (n) => {
          if (this.#seen[n] === stamp) return false;
          this.#seen[n] = stamp;
          const score = this.#scorer.score(this.#forms[n]!, g, OPTIMISTIC);
          if (score >= floor) found(this.#subjects[n]!, score);
          return ++scored >= MAX_SCORED;
        });
        if (stopped) break;
      }
    }
  }
}

/** What token `i` of guide name `g` costs unaligned: a time-zone feed word nothing (see score.ts). */
function guideExtra(g: NameForm, i: number): number {
  return timeFeedAt(g, i) ? 0 : weightAt(g, i);
}
