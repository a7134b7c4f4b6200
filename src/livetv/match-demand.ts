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
import { formsOfChannel, keyOf, type NameForm, PlaylistNames, readName, TokenPool } from './matcher/index.js';

/**
 * Shifts wanted under one key: nearly always a single one (no time shift), kept as a number; a
 * Set only when channels under one key differ. A Set per key was 75,000 Sets for a 50,000-entry
 * playlist, held through the whole import.
 */
type Shifts = number | Set<number>;

function addTo(map: Map<string, Shifts>, key: string, shift: number): void {
  if (key === '') return;
  const shifts = map.get(key);
  if (shifts === undefined) map.set(key, shift);
  else if (typeof shifts === 'number') {
    if (shifts !== shift) map.set(key, new Set([shifts, shift]));
  } else shifts.add(shift);
}

/** The playlist side: which guide channels are wanted, and shifted by how much. */
export class MatchDemand {
  readonly #ids = new Map<string, Shifts>();
  readonly #names = new Map<string, Shifts>();
  readonly #keys = new Map<string, Shifts>();
  readonly #overrides = new Map<string, Shifts>();
  readonly #subjects: readonly MatchSubject[];
  /** The subjects no override decides, which the scored stage may match. */
  readonly #open: boolean[] = [];
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

  constructor(subjects: readonly MatchSubject[], overrides: Overrides, matching: Matching = DEFAULT_MATCHING) {
    this.#subjects = subjects;
    this.#matching = matching;
    const pool = matching.scored ? new TokenPool() : undefined;
    for (const [i, s] of subjects.entries()) {
      const target = overrideFor(s, overrides);
      this.#open.push(target === undefined);
      if (s.shiftHours !== 0) this.#anyShift = true;
      if (target !== undefined) {
        // An override decides: its channel alone is wanted, or none for `null`.
        if (target !== null) addTo(this.#overrides, target, s.shiftHours);
        continue;
      }
      if (s.tvgId !== undefined) addTo(this.#ids, baseId(s.tvgId), s.shiftHours);
      for (const name of [s.tvgName, s.name]) {
        if (name !== undefined) addTo(this.#names, name.trim().toLowerCase(), s.shiftHours);
      }
      if (pool !== undefined && s.tvgId === undefined) {
        this.#scored ??= new PlaylistNames(matching.threshold, subjects.length);
        for (const form of subjectForms(s, pool)) {
          addTo(this.#keys, form.key, s.shiftHours);
          this.#scored.add(i, form);
        }
        continue;
      }
      // A tvg-name equal to the name (as panels write them) is read once.
      for (const name of s.tvgName === s.name ? [s.name] : [s.tvgName, s.name]) {
        if (name === undefined) continue;
        const r = readName(name);
        if (r.tokens.length > 0) addTo(this.#keys, keyOf(r.tokens, r.shift), s.shiftHours);
      }
    }
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
    for (const name of displayNames) add(this.#names.get(name.trim().toLowerCase()));
    for (const form of forms) add(this.#keys.get(form.key));
    // Wanted already, and with no shift anywhere: what the scored stage could add changes nothing.
    if (!this.#matching.scored || (out.size > 0 && !this.#anyShift)) return out;
    this.#playlist(false).wanting(forms, (s) => out.add(this.#subjects[s]!.shiftHours));
    return out;
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
      if (!(all || this.#open[i]) || scored.formsOf(i) !== undefined) continue;
      for (const form of subjectForms(s, pool)) scored.add(i, form);
    }
    this.#filled = all ? 'all' : 'open';
    return scored;
  }
}
