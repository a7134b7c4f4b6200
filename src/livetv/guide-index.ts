/**
 * The guide side of matching: every guide channel id seen, in priority order, and each playlist
 * channel's guide channel resolved once every guide has been read: the exact rules, then the
 * scored stage (matcher/).
 */
import type { GuideChannel } from '../sources/records.js';
import {
  baseId,
  DEFAULT_MATCHING,
  type Matching,
  type MatchRule,
  type MatchSubject,
  type Overrides,
  overrideFor,
  subjectForms,
} from './match-subject.js';
import {
  countryOf,
  formsOfChannel,
  GuideNames,
  type GuideWords,
  type NameForm,
  type NameMatch,
} from './matcher/index.js';

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

/**
 * No guide channel and no candidate: one object for every channel so resolved. An object each
 * was 17 MB while 300,000 channels without a guide were resolved (issue 48).
 */
const NOTHING: Resolution = Object.freeze({});

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
  #words: GuideWords | undefined;

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
   * closest other candidates when it chose none. `forms` are `s`'s names read (subjectForms);
   * `more.learned` the same names as its playlist's decoration reads them, when that differs;
   * `more.country` a country the playlist says around it (its neighbours' guide channels).
   */
  resolve(
    s: MatchSubject,
    overrides: Overrides,
    forms: readonly NameForm[] = subjectForms(s),
    more: { readonly learned?: readonly NameForm[]; readonly country?: string } = {},
  ): Resolution {
    const target = overrideFor(s, overrides);
    if (target === null) return { rule: 'override' };
    if (target !== undefined) return { key: target, rule: 'override' };
    if (s.tvgId !== undefined) {
      const exact = this.#keys.has(s.tvgId) ? s.tvgId : this.#byLowerId.get(s.tvgId.toLowerCase());
      if (exact !== undefined) return { key: exact, rule: 'tvgId' };
      const feed = this.#byBaseId.get(baseId(s.tvgId));
      if (feed !== undefined) return { key: feed, rule: 'feed' };
    }
    const { learned } = more;
    const country = countryHint(s, forms, learned) ?? more.country;
    const { threshold } = this.#matching;
    for (const name of [s.tvgName, s.name]) {
      const ids = name === undefined ? undefined : this.#byName.get(name.trim().toLowerCase());
      if (ids === undefined) continue;
      const exact = typeof ids === 'string' ? { id: ids } : this.#names.byIds(ids, forms, threshold, country);
      return exact.id !== undefined ? { key: exact.id, rule: 'displayName' } : { candidates: exact.candidates ?? [] };
    }
    // An exact name beats a decorated one.
    const plain = this.#byKey(forms, country) ?? this.#scored(forms, country);
    if (learned === undefined || learned.length === 0 || plain.rule === 'normalizedName') return plain;
    return settled(plain, this.#byKey(learned, country) ?? this.#scored(learned, country));
  }

  /** The `normalizedName` rule for names read as `forms`: undefined when no key is the guide's. */
  #byKey(forms: readonly NameForm[], country: string | undefined): Resolution | undefined {
    const exact = this.#names.byKey(forms, this.#matching.threshold, country);
    if (exact === undefined) return undefined;
    return exact.id !== undefined ? { key: exact.id, rule: 'normalizedName' } : { candidates: exact.candidates ?? [] };
  }

  /** The scored stage for names read as `forms`. */
  #scored(forms: readonly NameForm[], country: string | undefined): Resolution {
    if (!this.#matching.scored || forms.length === 0) return NOTHING;
    const scored = this.#names.scored(forms, this.#matching, country);
    if (scored.chosen === undefined) return scored.candidates.length > 0 ? { candidates: scored.candidates } : NOTHING;
    return { key: scored.chosen.id, rule: 'scored', score: scored.chosen.score, candidates: scored.candidates };
  }

  /** How often the guides' names hold words, for the playlists' decoration (matcher/decoration.ts). */
  words(): GuideWords {
    this.#words ??= this.#names.words();
    return this.#words;
  }
}

/**
 * One answer of a name read two ways: as its shapes say (`plain`) and as its playlist's
 * decoration reads it (`decorated`). The decorated reading decides, the plain one agreeing or
 * finding nothing, or finding by score what it finds exactly; when the plain reading finds a
 * channel the decorated one does not, the name is ambiguous, and both readings' channels are its
 * candidates for review.
 */
function settled(plain: Resolution, decorated: Resolution): Resolution {
  // An exact name read without its decoration beats a score of it read with it.
  const exact = decorated.rule === 'normalizedName' && plain.rule === 'scored';
  if (decorated.key !== undefined && (plain.key === undefined || plain.key === decorated.key || exact)) {
    if (plain.key === undefined || decorated.rule === 'normalizedName') return decorated;
    return (decorated.score ?? 0) > (plain.score ?? 0) ? decorated : plain;
  }
  // Two channels, or one the decorated reading does not find (`us national geographic` finds
  // `National Geographic US` by a word the playlist writes before every name): for review.
  const asCandidate = (r: Resolution): NameMatch[] => (r.key === undefined ? [] : [{ id: r.key, score: r.score ?? 1 }]);
  const candidates = merged(asCandidate(plain), asCandidate(decorated), plain.candidates, decorated.candidates);
  return candidates.length > 0 ? { candidates } : NOTHING;
}

/** Candidates of several lists, each guide channel once, best first, at most 3. */
function merged(...lists: (readonly NameMatch[] | undefined)[]): NameMatch[] {
  const out: NameMatch[] = [];
  for (const list of lists) for (const c of list ?? []) if (!out.some((o) => o.id === c.id)) out.push(c);
  return out.sort((a, b) => b.score - a.score).slice(0, 3);
}

/**
 * The country a channel's `tvg-country`, name prefix (`UK: `, or one its playlist's decoration
 * reads: `learned`) or group (`UK | News`, `USA`) names, if any.
 */
function countryHint(
  s: MatchSubject,
  forms: readonly NameForm[],
  learned: readonly NameForm[] = [],
): string | undefined {
  const tagged = s.country === undefined ? undefined : countryOf(s.country.split(/[,;]/)[0]!);
  if (tagged !== undefined) return tagged;
  for (const f of [...forms, ...learned]) if (f.country !== undefined) return f.country;
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
