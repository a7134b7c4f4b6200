/**
 * The guide side of name matching: every display name of every guide channel, read into its form
 * and indexed by what it can be aligned on. It answers the `normalizedName` rule (equal keys) and
 * the scored stage (the best guide channel for a playlist channel's names, when it clears the
 * threshold and clearly beats the runner-up), once every guide has been read.
 */

import { formsOfChannel, type NameForm } from './form.js';
import { type Frozen, frozenContexts } from './guide-contexts.js';
import { countryOfId, idStem, sameCountry } from './guide-ids.js';
import { type GuideWords, guideWords } from './guide-words.js';
import { Postings } from './postings.js';
import { playlistProbes } from './probes.js';
import { type GuideContext, minCoverP, Scorer } from './score.js';

/** A guide channel and how well a playlist channel's name fits it. */
export interface NameMatch {
  readonly id: string;
  /** 0..1, three decimals. */
  readonly score: number;
}

export interface ScoredMatch {
  /** The guide channel chosen: it clears the threshold and beats the runner-up by the margin. */
  readonly chosen?: NameMatch;
  /** The closest other guide channels, best first (at most 3). */
  readonly candidates: readonly NameMatch[];
}

/** What an exact rule found: one guide channel, or several it could not tell apart. */
export interface ExactMatch {
  readonly id?: string;
  /** When no channel was chosen: the channels it could not tell apart (at most 3). */
  readonly candidates?: readonly NameMatch[];
}

export interface ScoredOptions {
  /** Least score a match needs. */
  readonly threshold: number;
  /** Least lead of the best guide channel over the runner-up. */
  readonly margin: number;
}

/** Channels kept per key for the exact rule: enough to break ties by country and first name. */
const KEY_LIST = 8;
/** Candidates scored per playlist channel at most: the rarest probes come first. */
const MAX_SCORED = 2_000;

/**
 * Channels and names are kept in parallel arrays, not an object each: a 20,000-channel guide has
 * some 30,000 names, and what the import holds for the whole of it is what V8 scales the garbage
 * it lets pile up by (see form.ts).
 */
export class GuideNames {
  // Per channel: its id, the priority of the guide that declared it first, the country its id
  // names, its first display name as written (a copy: the text it was cut from may be a large
  // chunk), and its names as a list linked through #nextName (-1 ends it).
  readonly #ids: string[] = [];
  readonly #guides: number[] = [];
  readonly #countries: (string | undefined)[] = [];
  readonly #texts: (string | undefined)[] = [];
  readonly #firstName: number[] = [];
  readonly #lastName: number[] = [];
  readonly #byId = new Map<string, number>();
  /** The scored stage's best score and name per channel, valid where stamped with #bestSearch. */
  #bestStamp = new Int32Array(0);
  #bestScore = new Float64Array(0);
  #bestName = new Int32Array(0);
  #bestSearch = 0;
  /** Per channel, its id's stem once a tie asked for it. */
  readonly #stems: (string | undefined)[] = [];
  // Per name: its channel (negative, -1 - channel, for a channel's first name), its form, the next
  // name of its channel.
  readonly #nameChannel: number[] = [];
  readonly #forms: NameForm[] = [];
  readonly #nextName: number[] = [];
  /** Key → name, or names (at most KEY_LIST), for the exact rule. */
  readonly #byKey = new Map<string, number | number[]>();
  /** The letters of every call sign a guide name writes (call-sign.ts), to look a station up by. */
  readonly #stations = new Set<string>();
  /** Only for the scored stage: without it, names are looked up by key alone. */
  readonly #scoredStage: boolean;
  readonly #scorer = new Scorer();
  #frozen: Frozen | undefined;
  /** The names indexed, built once every guide has been read (none of it while they stream). */
  #postings: Postings | undefined;
  /** Name numbers already seen in the current search (stamped with `#search`). */
  #seen = new Int32Array(64);
  #search = 0;

  constructor(scored = true) {
    this.#scoredStage = scored;
  }

  get channelCount(): number {
    return this.#ids.length;
  }

  /**
   * Records guide channel `id` with its display names (read as `forms`), from the guide of
   * priority `guide`. A channel already known (another guide, or its programmes first) gains the
   * names it lacked.
   */
  add(id: string, names: readonly string[], guide: number, forms = formsOfChannel(names)): void {
    let c = this.#byId.get(id);
    if (c === undefined) {
      c = this.#ids.length;
      this.#ids.push(id);
      this.#guides.push(guide);
      this.#countries.push(countryOfId(id));
      this.#texts.push(undefined);
      this.#firstName.push(-1);
      this.#lastName.push(-1);
      this.#byId.set(id, c);
    }
    if (this.#texts[c] === undefined && names.length > 0)
      this.#texts[c] = Buffer.from(names[0]!, 'utf8').toString('utf8');
    for (const form of forms) {
      if (form.tokens.length === 0 || this.#hasKey(c, form.key)) continue;
      if (form.call !== undefined) this.#stations.add(form.call.letters);
      const n = this.#forms.length;
      const first = this.#firstName[c] === -1;
      this.#nameChannel.push(first ? -1 - c : c);
      this.#forms.push(form);
      this.#nextName.push(-1);
      if (first) this.#firstName[c] = n;
      else this.#nextName[this.#lastName[c]!] = n;
      this.#lastName[c] = n;
      const list = this.#byKey.get(form.key);
      if (list === undefined) this.#byKey.set(form.key, n);
      else if (typeof list === 'number') this.#byKey.set(form.key, [list, n]);
      else if (list.length < KEY_LIST) list.push(n);
      this.#frozen = undefined;
      this.#postings = undefined;
    }
  }

  /** Guide channel `id`'s first display name as written and the forms of its names, if it has any. */
  namesOf(id: string): { text: string; forms: NameForm[] } | undefined {
    const c = this.#byId.get(id);
    const text = c === undefined ? undefined : this.#texts[c];
    if (c === undefined || text === undefined) return undefined;
    const forms: NameForm[] = [];
    for (let n = this.#firstName[c]!; n !== -1; n = this.#nextName[n]!) forms.push(this.#forms[n]!);
    return { text, forms };
  }

  /**
   * The `normalizedName` rule: the guide channels with a display name that reads the same as one
   * of `forms` (the first form that has any). Of several, the one `prefer` picks; none when
   * nothing tells them apart (then they are the candidates).
   */
  byKey(forms: readonly NameForm[], threshold: number, country?: string): ExactMatch | undefined {
    for (const form of forms) {
      const found = this.#byKey.get(form.key);
      if (found === undefined) continue;
      const channels: number[] = [];
      for (const n of typeof found === 'number' ? [found] : found) {
        const c = this.#channelOf(n);
        if (!channels.includes(c)) channels.push(c);
      }
      return this.#decide(channels, forms, threshold, country);
    }
    return undefined;
  }

  /**
   * Of the guide channels `ids` (the `displayName` rule's, which found them by their names as
   * written), the one `prefer` picks.
   */
  byIds(ids: readonly string[], forms: readonly NameForm[], threshold: number, country?: string): ExactMatch {
    const channels = ids.map((id) => this.#byId.get(id)).filter((c) => c !== undefined);
    if (channels.length < ids.length) return { id: ids[0]! };
    return this.#decide(channels, forms, threshold, country);
  }

  #decide(channels: number[], forms: readonly NameForm[], threshold: number, country?: string): ExactMatch {
    const c = channels.length === 1 ? channels[0]! : this.#prefer(channels, forms, threshold, country);
    if (c !== undefined) return { id: this.#ids[c]! };
    return { candidates: channels.slice(0, 3).map((k) => ({ id: this.#ids[k]!, score: 1 })) };
  }

  /**
   * Of several guide channels a name fits equally, the one to take, or none when nothing tells
   * them apart. The same name in a later guide is the same channel written twice: the first guide
   * that has one of them decides. Then the playlist's country, when exactly one of them is in it;
   * then the channel more of whose own names fit the playlist channel's names (every name a
   * guide gives a channel is a witness of what it is called: `A&E`, `A&E East`, `A&E West`
   * against `A&E`, `E! Entertainment`, `Canal A&E (Chile)`), and of those the one whose names fit
   * better on average. Two still alike are taken as one channel written twice only when their
   * ids say so (idStem).
   */
  #prefer(channels: number[], forms: readonly NameForm[], threshold: number, country?: string): number | undefined {
    const first = Math.min(...channels.map((c) => this.#guides[c]!));
    let pick = channels.filter((c) => this.#guides[c] === first);
    if (pick.length === 1) return pick[0];
    if (country !== undefined) {
      const local = pick.filter((c) => sameCountry(this.#countries[c], country));
      if (local.length === 1) return local[0];
      if (local.length > 1) pick = local;
    }
    const fits = pick.map((c) => this.#fit(c, forms, threshold));
    const top = fits.reduce((a, b) => (b.count > a.count || (b.count === a.count && b.mean > a.mean) ? b : a));
    const best = pick.filter((_, k) => fits[k]!.count === top.count && fits[k]!.mean === top.mean);
    if (best.length === 1) return best[0];
    // Ids that differ by a quality tag or a feed only (`DasErste.de`, `DasErsteHD.de`) name one
    // channel written twice: either is right.
    const stem = this.#stemOf(best[0]!);
    return best.every((c) => this.#stemOf(c) === stem) ? best[0] : undefined;
  }

  /**
   * How many of guide channel `c`'s names fit the playlist channel's names `forms` (score at least
   * `threshold`), and their mean score in millionths.
   */
  #fit(c: number, forms: readonly NameForm[], threshold: number): { count: number; mean: number } {
    let count = 0;
    let sum = 0;
    let names = 0;
    for (let n = this.#firstName[c]!; n !== -1; n = this.#nextName[n]!) {
      const g = this.#forms[n]!;
      const context = this.#contextAt(n);
      let score = 0;
      for (const p of forms) score = Math.max(score, this.#scorer.score(p, g, context));
      if (score >= threshold) count++;
      sum += score;
      names++;
    }
    return { count, mean: Math.round((sum / Math.max(1, names)) * 1e6) };
  }

  /**
   * The scored stage for a playlist channel read as `forms` (its tvg-name and name): every guide
   * channel with a display name that could fit is scored, and the best is chosen when it clears
   * the threshold and beats the runner-up by the margin (or is the only one in the playlist's
   * `country` among those within the margin). Otherwise it is left for review, with its candidates.
   */
  scored(forms: readonly NameForm[], options: ScoredOptions, country?: string): ScoredMatch {
    if (!this.#scoredStage) return { candidates: [] };
    // Each channel's best score and name, in arrays kept from search to search (stamped).
    if (this.#bestStamp.length < this.#ids.length) {
      this.#bestStamp = new Int32Array(this.#ids.length * 2);
      this.#bestScore = new Float64Array(this.#ids.length * 2);
      this.#bestName = new Int32Array(this.#ids.length * 2);
    }
    const stamp = ++this.#bestSearch;
    const score = this.#bestScore;
    const name = this.#bestName;
    const ranked: number[] = [];
    const share = minCoverP(options.threshold);
    this.#postings ??= new Postings(this.#forms);
    for (const p of forms) {
      this.#visit(this.#postings, p, share, (n) => {
        const s = this.#scorer.score(p, this.#forms[n]!, this.#contextAt(n));
        if (s <= 0) return;
        const c = this.#channelOf(n);
        if (this.#bestStamp[c] !== stamp) {
          this.#bestStamp[c] = stamp;
          ranked.push(c);
        } else if (s <= score[c]!) return;
        score[c] = s;
        name[c] = n;
      });
    }
    ranked.sort((a, b) => score[b]! - score[a]! || a - b);
    const top = ranked[0];
    let chosen: number | undefined;
    if (top !== undefined && score[top]! >= options.threshold) {
      // The rivals within the margin. The same name in a later guide, or an id that differs by a
      // quality tag or feed only, is the same channel written twice, not a rival.
      const topKey = this.#forms[name[top]!]!.key;
      const close = [top];
      for (const c of ranked) {
        if (score[top]! - score[c]! >= options.margin - 1e-9) break;
        if (c === top || (this.#forms[name[c]!]!.key === topKey && this.#guides[c] !== this.#guides[top])) continue;
        if (this.#stemOf(c) !== this.#stemOf(top)) close.push(c);
      }
      if (close.length === 1) chosen = top;
      else if (country !== undefined) {
        const local = close.filter((c) => sameCountry(this.#countries[c], country));
        if (local.length === 1 && score[local[0]!]! >= options.threshold) chosen = local[0]!;
      }
    }
    const match = (c: number): NameMatch => ({ id: this.#ids[c]!, score: Math.round(score[c]! * 1000) / 1000 });
    const candidates: NameMatch[] = [];
    for (const c of ranked) {
      if (candidates.length === 3) break;
      if (c !== chosen) candidates.push(match(c));
    }
    return chosen === undefined ? { candidates } : { chosen: match(chosen), candidates };
  }

  /**
   * How many channels have a name holding each of `words`, and every number the names hold:
   * what a playlist's learned decoration is checked against (decoration.ts).
   */
  words(): GuideWords {
    return guideWords(this.#ids.length, (c) => this.#namesOfChannel(c), this.#forms);
  }

  /** Channel `c`'s id stem (idStem), computed once. */
  #stemOf(c: number): string {
    let stem = this.#stems[c];
    if (stem === undefined) {
      stem = idStem(this.#ids[c]!);
      this.#stems[c] = stem;
    }
    return stem;
  }

  #channelOf(n: number): number {
    const c = this.#nameChannel[n]!;
    return c < 0 ? -1 - c : c;
  }

  #hasKey(c: number, key: string): boolean {
    for (let n = this.#firstName[c]!; n !== -1; n = this.#nextName[n]!) if (this.#forms[n]!.key === key) return true;
    return false;
  }

  /** Visits each name that could score at least the bound with `p`, once. */
  #visit(postings: Postings, p: NameForm, share: number, visit: (n: number) => void): void {
    if (this.#seen.length < this.#forms.length) this.#seen = new Int32Array(this.#forms.length * 2);
    const stamp = ++this.#search;
    let scored = 0;
    const once = (n: number) => {
      if (this.#seen[n] === stamp) return false;
      this.#seen[n] = stamp;
      visit(n);
      return ++scored >= MAX_SCORED;
    };
    for (const i of playlistProbes(postings, p, share, this.#stations)) if (postings.probe(p, i, once)) break;
  }

  /** Document frequencies and the names that variants extend, once the guides are read. */
  #freeze(): Frozen {
    this.#frozen ??= frozenContexts(this.#ids.length, (c) => this.#namesOfChannel(c), this.#byKey, this.#forms);
    return this.#frozen;
  }

  /** The forms of channel `c`'s names. */
  *#namesOfChannel(c: number): Generator<NameForm> {
    for (let n = this.#firstName[c]!; n !== -1; n = this.#nextName[n]!) yield this.#forms[n]!;
  }

  /**
   * How the scorer weighs guide name number `n`: a playlist name's feed words fully when other
   * channels extend it with such words (`BBC One` beside `BBC One Scotland`); its own time-zone
   * words as a feed's unless it is such a variant itself (`MGM+ East` beside `MGM+`).
   */
  #contextAt(n: number): GuideContext {
    const frozen = this.#freeze();
    return frozen.contexts[frozen.contextOf[n]!]!;
  }
}
