/**
 * Channel ↔ guide matching. The exact rules, first that hits wins: an operator override; the
 * tvg-id (ignoring case); the tvg-id with an iptv-org `@feed` suffix stripped on either side; the
 * tvg-name (or name) equal to a display-name ignoring case; names that read the same once prefixes,
 * tags, notes, case, accents and script are set aside (matcher/read-name.ts). When none hits, the
 * scored stage (matcher/) compares the names with every display-name of the guide channels.
 *
 * Two halves: `MatchDemand` knows the playlist channels and answers, while a guide streams,
 * "could any channel match this guide channel, and with which time shifts?" (so programmes
 * nobody shows are skipped and shifted copies are made on the way); `GuideIndex` collects the
 * guide channels and resolves each channel's guide key once every guide has been read.
 */
import type { GuideChannel } from '../sources/records.js';
import {
  countryOf,
  formOf,
  formsOfChannel,
  GuideNames,
  keyOf,
  type NameForm,
  type NameMatch,
  PlaylistNames,
  readName,
  TokenPool,
} from './matcher/index.js';
import type { MatchCounts, MatchingOptions } from './types.js';

/**
 * The loose form of a name for the `normalizedName` rule: country prefixes, quality tags and
 * notes dropped, accents, case, punctuation and spaces ignored, Cyrillic and Greek in Latin
 * letters, `&` read as "and", a time shift kept apart.
 * @example matchName('Télé-Étoile FHD') === matchName('tele etoile') // true
 * @example matchName('UK: BBC One (1080p) [Geo-blocked]') === matchName('BBC 1') // true
 */
export function matchName(name: string): string {
  const r = readName(name);
  return keyOf(r.tokens, r.shift);
}

/**
 * A guide id without its iptv-org feed suffix, lower-cased.
 * @example baseId('BBCOne.uk@HD') // 'bbcone.uk'
 */
export function baseId(id: string): string {
  const at = id.lastIndexOf('@');
  return (at > 0 ? id.slice(0, at) : id).trim().toLowerCase();
}

/** The key a shifted channel's programmes are stored under: the same guide channel, moved in time. */
export function shiftedKey(key: string, shiftHours: number): string {
  return shiftHours === 0 ? key : `${key} (shift ${shiftHours > 0 ? '+' : ''}${shiftHours}h)`;
}

/** What matching needs of a playlist channel. */
export interface MatchSubject {
  readonly name: string;
  readonly tvgId?: string;
  readonly tvgName?: string;
  /** The playlist group: a country it names (`UK | News`) is a hint that breaks ties. */
  readonly group?: string;
  /** `tvg-country`: a hint that breaks ties, as a name prefix's country is. */
  readonly country?: string;
  /** Hours its guide is shifted by (tvg-shift + the playlist's setting). */
  readonly shiftHours: number;
}

export type MatchRule = keyof MatchCounts;

/** Operator overrides: playlist channel (tvg-id, tvg-name or name) → guide channel id, or null for none. */
export type Overrides = ReadonlyMap<string, string | null>;

/** How the scored stage decides (docs/livetv.md, "Matching by score"), defaults filled in. */
export type Matching = Required<MatchingOptions>;

export const DEFAULT_MATCHING: Matching = { scored: true, threshold: 0.85, margin: 0.1 };

/** `options` with the defaults filled in. */
export function matchingOf(options: MatchingOptions | undefined): Matching {
  return { ...DEFAULT_MATCHING, ...options };
}

/** The forms of a channel's names: its tvg-name, then its name (one when they read the same). */
export function subjectForms(s: MatchSubject, pool?: TokenPool): NameForm[] {
  const forms: NameForm[] = [];
  for (const name of [s.tvgName, s.name]) {
    if (name === undefined) continue;
    const form = formOf(name, pool);
    if (form.tokens.length > 0 && !forms.some((f) => f.key === form.key)) forms.push(form);
  }
  return forms;
}

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

function overrideFor(s: MatchSubject, overrides: Overrides): string | null | undefined {
  for (const k of [s.tvgId, s.tvgName, s.name]) {
    if (k === undefined) continue;
    const target = overrides.get(k);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** How a playlist channel's guide channel was found, or why none was. */
export interface Resolution {
  /** The guide channel id; absent when none was found, or an override says none. */
  readonly key?: string;
  /** The rule that decided; absent when none did. */
  readonly rule?: MatchRule;
  /** The score of a `scored` match (0..1). */
  readonly score?: number;
  /** For `scored` and unmatched channels: the closest other guide channels, best first. */
  readonly candidates?: readonly NameMatch[];
}

/** Guide channels kept per display name for the `displayName` rule: enough to break ties. */
const NAME_LIST = 8;

/** The guide side: every guide channel id seen, in priority order. */
export class GuideIndex {
  readonly #keys = new Set<string>();
  readonly #byLowerId = new Map<string, string>();
  readonly #byBaseId = new Map<string, string>();
  /** Display name, lower-cased → the guide channels that have it (a list only when several do). */
  readonly #byName = new Map<string, string | string[]>();
  readonly #names: GuideNames;
  readonly #matching: Matching;

  constructor(matching: Matching = DEFAULT_MATCHING) {
    this.#matching = matching;
    this.#names = new GuideNames(matching.scored);
  }

  /** Guide channel `id`'s first display name and the forms of its names, if it has names. */
  namesOf(id: string): { text: string; forms: readonly NameForm[] } | undefined {
    return this.#names.namesOf(id);
  }

  get size(): number {
    return this.#keys.size;
  }

  has(id: string): boolean {
    return this.#keys.has(id);
  }

  /**
   * Records a guide channel (or an id only seen on programmes, with no names) of the guide of
   * priority `guide`; returns its display names read (for MatchDemand.shiftsFor).
   */
  add(channel: Pick<GuideChannel, 'id' | 'displayNames'>, guide = 0): NameForm[] {
    const { id } = channel;
    if (!this.#keys.has(id)) {
      this.#keys.add(id);
      if (!this.#byLowerId.has(id.toLowerCase())) this.#byLowerId.set(id.toLowerCase(), id);
      const base = baseId(id);
      const current = this.#byBaseId.get(base);
      // A feed-less id is the channel itself: it beats `X@SD` seen earlier.
      if (current === undefined || (current.includes('@') && !id.includes('@'))) this.#byBaseId.set(base, id);
    }
    for (const { text } of channel.displayNames) {
      const lower = text.trim().toLowerCase();
      if (lower === '') continue;
      const ids = this.#byName.get(lower);
      if (ids === undefined) this.#byName.set(lower, id);
      else if (typeof ids === 'string') {
        if (ids !== id) this.#byName.set(lower, [ids, id]);
      } else if (ids.length < NAME_LIST && !ids.includes(id)) ids.push(id);
    }
    const texts = channel.displayNames.map((n) => n.text);
    const forms = formsOfChannel(texts);
    this.#names.add(id, texts, guide, forms);
    return forms;
  }

  /**
   * The guide channel for `s` and the rule that found it; for the scored stage its score, and the
   * closest other candidates when it chose none. `forms` are `s`'s names read (subjectForms).
   */
  resolve(s: MatchSubject, overrides: Overrides, forms: readonly NameForm[] = subjectForms(s)): Resolution {
    const target = overrideFor(s, overrides);
    if (target === null) return { rule: 'override' };
    if (target !== undefined) return { key: target, rule: 'override' };
    if (s.tvgId !== undefined) {
      const exact = this.#keys.has(s.tvgId) ? s.tvgId : this.#byLowerId.get(s.tvgId.toLowerCase());
      if (exact !== undefined) return { key: exact, rule: 'tvgId' };
      const feed = this.#byBaseId.get(baseId(s.tvgId));
      if (feed !== undefined) return { key: feed, rule: 'feed' };
    }
    const country = countryHint(s, forms);
    const { threshold } = this.#matching;
    for (const name of [s.tvgName, s.name]) {
      const ids = name === undefined ? undefined : this.#byName.get(name.trim().toLowerCase());
      if (ids === undefined) continue;
      const exact = typeof ids === 'string' ? { id: ids } : this.#names.byIds(ids, forms, threshold, country);
      return exact.id !== undefined ? { key: exact.id, rule: 'displayName' } : { candidates: exact.candidates ?? [] };
    }
    const exact = this.#names.byKey(forms, threshold, country);
    if (exact !== undefined) {
      return exact.id !== undefined
        ? { key: exact.id, rule: 'normalizedName' }
        : { candidates: exact.candidates ?? [] };
    }
    if (!this.#matching.scored || forms.length === 0) return {};
    const scored = this.#names.scored(forms, this.#matching, country);
    if (scored.chosen === undefined) return scored.candidates.length > 0 ? { candidates: scored.candidates } : {};
    return { key: scored.chosen.id, rule: 'scored', score: scored.chosen.score, candidates: scored.candidates };
  }
}

/** The country a channel's `tvg-country`, name prefix (`UK: `) or group (`UK | News`, `USA`) names, if any. */
function countryHint(s: MatchSubject, forms: readonly NameForm[]): string | undefined {
  const tagged = s.country === undefined ? undefined : countryOf(s.country.split(/[,;]/)[0]!);
  if (tagged !== undefined) return tagged;
  for (const f of forms) if (f.country !== undefined) return f.country;
  if (s.group === undefined) return undefined;
  // A playlist has a few groups and thousands of channels in them: each group is read once.
  let country = GROUP_COUNTRIES.get(s.group);
  if (country === undefined) {
    if (GROUP_COUNTRIES.size >= 1_000) GROUP_COUNTRIES.clear();
    country = countryOf(s.group) ?? '';
    GROUP_COUNTRIES.set(s.group, country);
  }
  return country === '' ? undefined : country;
}

/** The country each playlist group names ('' for none), as countryHint read them. */
const GROUP_COUNTRIES = new Map<string, string>();
