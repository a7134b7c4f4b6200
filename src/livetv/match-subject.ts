/**
 * What both halves of matching share: the playlist channel as matching sees it (MatchSubject),
 * the options, an operator's overrides, the forms of a channel's names, and the ids' and keys'
 * helpers. The halves are match-demand.ts (the playlist side, while guides stream) and
 * guide-index.ts (the guide side, once they are read); match.ts names them all.
 */
import {
  formOf,
  keyOf,
  type Learned,
  type NameEdges,
  type NameForm,
  readName,
  type TokenPool,
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
  /** The playlist it comes from: what each playlist writes around its names is learned apart. */
  readonly source?: string;
}

export type MatchRule = keyof MatchCounts;

/** Operator overrides: playlist channel (tvg-id, tvg-name or name) → guide channel id, or null for none. */
export type Overrides = ReadonlyMap<string, string | null>;

/** How the scored stage decides (docs/livetv.md, "Matching by score"), defaults filled in. */
export type Matching = Required<MatchingOptions>;

export const DEFAULT_MATCHING: Matching = { scored: true, threshold: 0.85, margin: 0.1, decoration: true };

/** `options` with the defaults filled in. */
export function matchingOf(options: MatchingOptions | undefined): Matching {
  return { ...DEFAULT_MATCHING, ...options };
}

/**
 * The forms of a channel's names: its tvg-name, then its name (one when they read the same);
 * read with its playlist's `learned` decoration when given, and the name's edges collected into
 * `edges` (for learning it).
 */
export function subjectForms(s: MatchSubject, pool?: TokenPool, learned?: Learned, edges?: NameEdges): NameForm[] {
  const forms: NameForm[] = [];
  for (const [i, name] of [s.tvgName, s.name].entries()) {
    if (name === undefined) continue;
    const form = formOf(name, pool, {
      ...(learned !== undefined ? { learned } : {}),
      ...(edges !== undefined && i === 1 ? { edges } : {}),
    });
    if (form.tokens.length > 0 && !forms.some((f) => f.key === form.key)) forms.push(form);
  }
  return forms;
}

export function overrideFor(s: MatchSubject, overrides: Overrides): string | null | undefined {
  for (const k of [s.tvgId, s.tvgName, s.name]) {
    if (k === undefined) continue;
    const target = overrides.get(k);
    if (target !== undefined) return target;
  }
  return undefined;
}
