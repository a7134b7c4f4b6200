/**
 * How well a playlist channel's name fits a guide channel's display name, from 0 to 1.
 *
 * The tokens of both names are aligned: equal tokens; two or three adjacent tokens of one name
 * equal to one of the other (`Record TV` / `RecordTV`); tokens equal once spelled loosely, or one
 * letter apart when long (`kinokomedija` / `kinokomediya`), for partial credit. The guide name's
 * coverage `covG` is the weight of its aligned tokens over its total; the playlist name's `covP`
 * is its aligned weight over itself, where a place, region, language or bracketed word it adds
 * weighs FEED. The score is `covG × (β + (1 − β) × covP)`: words the guide's name has and the
 * playlist's lacks count fully against a match (`BBC One` is not `BBC One Scotland`), words only
 * the playlist's name has count half, and a feed word it adds little (`Россия 1 (Ставрополь)` is
 * a regional feed of `Россия 1`, `Lifetime Latin America` a feed of `Lifetime`) unless the guide
 * itself tells such variants apart, while a plain name word it adds to the whole of the guide's
 * name makes it a sibling (`RTL 102.5 Disco` is not `RTL 102.5`), never a match; a time-zone word the guide's name adds (`A&E East`, `NBC -
 * Pacific Feed`) does not count against it, as it names a feed of the same channel. Names whose numbers, `+` or time shift differ never match
 * (`Fox Sports 1` and `Fox Sports 2`, `ATV` and `ATV +`, `Arte` and `Arte +1`), nor names sharing
 * no word that says more than "TV".
 */
import { namesStation } from './call-sign.js';
import { bracketedAt, feedAt, loose, markAt, type NameForm, timeFeedAt, weightAt } from './form.js';

/** Share of the score that does not depend on the playlist name's own extra words. */
export const BETA = 0.5;
/** Weight of a place, region, language or bracketed word the playlist name adds to the guide's. */
export const FEED = 0.2;
/**
 * Factor of a name that is the whole of a guide name and a plain name word more (`RTL 102.5
 * Disco` against `RTL 102.5`): its score stays under the default threshold (0.85).
 */
export const SIBLING = 0.8;
/** Credit of two tokens that are equal only when spelled loosely (`Kinokomedija` / `Кинокомедия`). */
const LOOSE_CREDIT = 0.95;
/** Credit of two long tokens one letter apart once spelled loosely (`Bhakthi` / `Bhakti`). */
const NEAR_CREDIT = 0.85;

/** What the guide knows of a guide name that changes how a playlist name is weighed against it. */
export interface GuideContext {
  /** The guide has other channels named like this one plus feed words (`BBC One` and `BBC One Scotland`). */
  readonly variants: boolean;
  /**
   * May a time-zone word the guide name adds (`A&E East`) go unmatched? Not when the guide has a
   * channel of that name without it (`MGM+ East` beside `MGM+`): then the word tells them apart.
   */
  readonly timeFeeds: boolean;
  /**
   * May a playlist name with numbers match this name without any (`ABC 6 Columbus OH (WSYX)` and
   * `ABC (WSYX) Columbus, OH`)? Only when a word they share names this guide channel alone.
   */
  readonly unique: (token: string) => boolean;
}

/** The context that scores highest: for "could anything match", before the guide is known. */
export const OPTIMISTIC: GuideContext = { variants: false, timeFeeds: true, unique: () => true };

/**
 * Scores names. Its credits are written into buffers it reuses from pair to pair: a guide of
 * 20,000 channels scores hundreds of thousands of pairs, and two fresh arrays per pair were most
 * of the work's garbage.
 */
export class Scorer {
  #cp = new Float64Array(16);
  #cg = new Float64Array(16);
  /**
   * The score of playlist name `p` against guide name `g`, 0 when they cannot be one channel.
   * @example new Scorer().score(formOf('Lifetime Latin America (1080p)'), formOf('Lifetime'), OPTIMISTIC) // 0.93
   */
  score(p: NameForm, g: NameForm, context: GuideContext): number {
    if (p.shift !== g.shift) return 0;
    const station = sameStation(p, g);
    if (station === false) return 0;
    let relaxed = false;
    if (p.marks !== g.marks && !station) {
      // A dial number the guide leaves out (`FOX 5 New York NY (WNYW)`); never a sibling's
      // number at the end (`Sky News Extra 2`) nor a `+`.
      if (g.marks !== '' || p.trailingNumber || p.marks.includes('+')) return 0;
      relaxed = true;
    }
    const n = p.tokens.length;
    const m = g.tokens.length;
    if (this.#cp.length < n) this.#cp = new Float64Array(n * 2);
    if (this.#cg.length < m) this.#cg = new Float64Array(m * 2);
    const cp = this.#cp;
    const cg = this.#cg;
    cp.fill(0, 0, n);
    cg.fill(0, 0, m);
    align(p, g, cp, cg);
    let named = false;
    let matchedP = 0;
    let extraP = 0;
    // A plain name word the playlist name adds (not a place, language, feed or weak word).
    let plainExtra = false;
    for (let i = 0; i < n; i++) {
      const w = weightAt(p, i);
      const c = cp[i]!;
      if (c === 0 && p.kinds[i] === 'n') plainExtra = true;
      matchedP += c * w;
      extraP += (1 - c) * (feedAt(p, i) && !context.variants ? Math.min(w, FEED) : w);
      // A word in brackets says which feed or region (`Россия 24 (Астрахань)` is not `Астрахань 24`).
      if (c > 0 && w >= 1 && !markAt(p, i) && !bracketedAt(p, i)) named = true;
    }
    if (!named && !station && !numbered(p, cp)) return 0;
    let matchedG = 0;
    // A time-zone feed word the guide's name adds (`A&E East`) names a feed of the same channel.
    let feeds = 0;
    let unique = !relaxed;
    for (let j = 0; j < m; j++) {
      if (cg[j] === 0 && context.timeFeeds && timeFeedAt(g, j)) feeds += weightAt(g, j);
      matchedG += cg[j]! * weightAt(g, j);
      if (!unique && cg[j] === 1 && !markAt(g, j) && context.unique(g.tokens[j]!)) unique = true;
    }
    if (!unique || feeds >= g.total) return 0;
    const covP = matchedP / (matchedP + extraP);
    const covG = matchedG / (g.total - feeds);
    // A name that is a number and words for "channel" (`Channel 8`) is all of the guide's name or nothing.
    if (!named && !station && covG < 1) return 0;
    // All of the guide's name and a name word more is a sibling of that brand (`RTL 102.5 Disco`
    // of `RTL 102.5`, `Sky News Arabia Vertical`), not a feed of it: scored under the threshold,
    // so that it is a candidate for review, never a match.
    const sibling = plainExtra && covG >= 1 - 1e-9 && !station ? SIBLING : 1;
    const score = sibling * covG * (BETA + (1 - BETA) * covP);
    // One station: its network, city and dial number written either way only rank its names.
    return station ? STATION + (1 - STATION) * score : score;
  }
}

/**
 * Is `p` a number and words for "channel" only (`Channel 8`, `ช่อง 7`), its numbers aligned
 * (credits `cp`)? Then its number is what names it, if the guide's name is that and nothing more.
 */
function numbered(p: NameForm, cp: Float64Array): boolean {
  let marks = 0;
  for (let i = 0; i < p.tokens.length; i++) {
    if (markAt(p, i)) {
      if (cp[i] !== 1) return false;
      marks++;
    } else if (weightAt(p, i) >= 1) return false;
  }
  return marks > 0;
}

/**
 * Least score of two names of one North American station (call-sign.ts): `FOX 32 Chicago IL
 * (WFLD)` and `FOX (WFLD) Chicago, IL HD`, `WBTV News` and `CBS (WBTV) Charlotte, NC`.
 */
export const STATION = 0.9;

/**
 * Do `p` and `g` name one station (true), two (false: their call signs differ), or do they not
 * say (undefined)? A playlist name without a call sign of its own names a station's main channel
 * by its letters as a word (`WBTV News`); a guide name does not (`WHEC MeTV` is one of WHEC's
 * other channels, which a guide names so as often as not).
 */
function sameStation(p: NameForm, g: NameForm): boolean | undefined {
  if (g.call === undefined) return undefined;
  if (p.call !== undefined) return p.call.id === g.call.id;
  return namesStation(p.tokens, g.call) ? true : undefined;
}

/**
 * The least share of a playlist name's weight a guide name must cover to score `threshold`
 * (the score is at most `β + (1 − β) × covP`).
 */
export function minCoverP(threshold: number): number {
  return Math.max(0, (threshold - BETA) / (1 - BETA));
}

/** Credits of each token of `p` and `g` (0 unaligned, 1 equal, less when loose). */
function align(p: NameForm, g: NameForm, cp: Float64Array, cg: Float64Array): void {
  const a = p.tokens;
  const b = g.tokens;
  // Equal tokens first, then joins, then loose spellings of what is left.
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (cg[j] === 0 && a[i] === b[j]) {
        cp[i] = 1;
        cg[j] = 1;
        break;
      }
    }
  }
  joined(a, b, cp, cg);
  joined(b, a, cg, cp);
  // Loose spellings are computed here, for the few tokens still unaligned, not kept with the names.
  for (let i = 0; i < a.length; i++) {
    if (cp[i] !== 0) continue;
    const la = loose(a[i]!);
    if (la === '') continue;
    for (let j = 0; j < b.length; j++) {
      if (cg[j] !== 0) continue;
      const lb = loose(b[j]!);
      // Words for "channel" in two languages are the same word (`Channel 8` / `8 канал`). Words
      // for "television" (`LRT TV` / `LRT Televizija`, `Шансон ТВ` / `Шансон-TB`) are equal when
      // spelled loosely: short of a whole word, so that `Tele 5` is never `TV 5` (see numbered).
      const same = la === lb ? (la === 'channel' ? 1 : LOOSE_CREDIT) : 0;
      const credit = lb === '' ? 0 : same > 0 ? same : la.length >= 6 && withinOne(la, lb) ? NEAR_CREDIT : 0;
      if (credit > 0) {
        cp[i] = credit;
        cg[j] = credit;
        break;
      }
    }
  }
}

/** Two or three adjacent unaligned tokens of `a` equal to one unaligned token of `b`. */
function joined(a: readonly string[], b: readonly string[], ca: Float64Array, cb: Float64Array): void {
  for (let i = 0; i + 1 < a.length; i++) {
    if (ca[i] !== 0 || ca[i + 1] !== 0) continue;
    let glued = a[i]!;
    for (let n = 2; n <= 3 && i + n <= a.length && ca[i + n - 1] === 0; n++) {
      glued += a[i + n - 1]!;
      const j = b.indexOf(glued);
      if (j >= 0 && cb[j] === 0) {
        for (let k = i; k < i + n; k++) ca[k] = 1;
        cb[j] = 1;
        break;
      }
    }
  }
}

/** Are `a` and `b` at most one edit (insert, delete, replace) apart? */
function withinOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
