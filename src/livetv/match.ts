/**
 * Channel ↔ guide matching. The rules, first that hits wins: an operator override; the tvg-id
 * (ignoring case); the tvg-id with an iptv-org `@feed` suffix stripped on either side; the
 * tvg-name (or name) equal to a display-name ignoring case; normalised names equal.
 *
 * Two halves: `MatchDemand` knows the playlist channels and answers, while a guide streams,
 * "could any channel match this guide channel, and with which time shifts?" (so programmes
 * nobody shows are skipped and shifted copies are made on the way); `GuideIndex` collects the
 * guide channels and resolves each channel's guide key once every guide has been read.
 */
import type { GuideChannel } from '../sources/records.js';
import type { MatchCounts } from './types.js';

const QUALITY_SUFFIX = new Set(['hd', 'fhd', 'uhd', '4k', '8k', 'sd', 'hq', 'hevc', 'h264', 'h265', '720p', '1080p']);

/**
 * The loose form of a name for the last matching rule: accents, case, punctuation, spaces and
 * trailing quality tags dropped; `&` read as "and".
 * @example matchName('Télé-Étoile FHD') === matchName('tele etoile') // true
 */
export function matchName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  while (words.length > 1 && QUALITY_SUFFIX.has(words[words.length - 1]!)) words.pop();
  return words.join('');
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
  /** Hours its guide is shifted by (tvg-shift + the playlist's setting). */
  readonly shiftHours: number;
}

export type MatchRule = keyof MatchCounts;

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
  readonly #loose = new Map<string, Shifts>();
  readonly #overrides = new Map<string, Shifts>();

  constructor(subjects: readonly MatchSubject[], overrides: ReadonlyMap<string, string>) {
    for (const s of subjects) {
      const target = overrideFor(s, overrides);
      if (target !== undefined) addTo(this.#overrides, target, s.shiftHours);
      if (s.tvgId !== undefined) addTo(this.#ids, baseId(s.tvgId), s.shiftHours);
      for (const name of [s.tvgName, s.name]) {
        if (name === undefined) continue;
        addTo(this.#names, name.trim().toLowerCase(), s.shiftHours);
        addTo(this.#loose, matchName(name), s.shiftHours);
      }
    }
  }

  /** Shifts of the channels that could show guide channel `id` (empty: nobody wants it). */
  shiftsFor(id: string, displayNames?: readonly string[]): ReadonlySet<number> {
    const out = new Set<number>();
    const add = (shifts: Shifts | undefined) => {
      if (typeof shifts === 'number') out.add(shifts);
      else if (shifts) for (const s of shifts) out.add(s);
    };
    add(this.#overrides.get(id));
    add(this.#ids.get(baseId(id)));
    for (const name of displayNames ?? []) {
      add(this.#names.get(name.trim().toLowerCase()));
      add(this.#loose.get(matchName(name)));
    }
    return out;
  }
}

function overrideFor(s: MatchSubject, overrides: ReadonlyMap<string, string>): string | undefined {
  for (const k of [s.tvgId, s.tvgName, s.name]) {
    if (k === undefined) continue;
    const target = overrides.get(k);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** The guide side: every guide channel id seen, in priority order (first declared wins ties). */
export class GuideIndex {
  readonly #keys = new Set<string>();
  readonly #byLowerId = new Map<string, string>();
  readonly #byBaseId = new Map<string, string>();
  readonly #byName = new Map<string, string>();
  readonly #byLoose = new Map<string, string>();

  get size(): number {
    return this.#keys.size;
  }

  has(id: string): boolean {
    return this.#keys.has(id);
  }

  /** Records a guide channel (or an id only seen on programmes, with no names). */
  add(channel: Pick<GuideChannel, 'id' | 'displayNames'>): void {
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
      if (lower !== '' && !this.#byName.has(lower)) this.#byName.set(lower, id);
      const loose = matchName(text);
      if (loose !== '' && !this.#byLoose.has(loose)) this.#byLoose.set(loose, id);
    }
  }

  /** The guide channel id for `s` and the rule that found it, or undefined. */
  resolve(s: MatchSubject, overrides: ReadonlyMap<string, string>): { key: string; rule: MatchRule } | undefined {
    const target = overrideFor(s, overrides);
    if (target !== undefined) return { key: target, rule: 'override' };
    if (s.tvgId !== undefined) {
      const exact = this.#keys.has(s.tvgId) ? s.tvgId : this.#byLowerId.get(s.tvgId.toLowerCase());
      if (exact !== undefined) return { key: exact, rule: 'tvgId' };
      const feed = this.#byBaseId.get(baseId(s.tvgId));
      if (feed !== undefined) return { key: feed, rule: 'feed' };
    }
    for (const name of [s.tvgName, s.name]) {
      const key = name === undefined ? undefined : this.#byName.get(name.trim().toLowerCase());
      if (key !== undefined) return { key, rule: 'displayName' };
    }
    for (const name of [s.tvgName, s.name]) {
      const loose = name === undefined ? '' : matchName(name);
      const key = loose === '' ? undefined : this.#byLoose.get(loose);
      if (key !== undefined) return { key, rule: 'normalizedName' };
    }
    return undefined;
  }
}
