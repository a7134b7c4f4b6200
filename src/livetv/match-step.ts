/**
 * Step 4 of a live-TV import: once every guide has been read, each channel's guide channel is
 * resolved (match.ts), its guide key set in the store, how it was found recorded, and every
 * playlist entry reported with its channel's match (`LiveTvImportResult.matches`).
 */
import type { LiveTvImport } from '../store/index.js';
import type { EntryRef, EntrySink } from './channels.js';
import type { GuideIndex, MatchSubject, Overrides, Resolution } from './match.js';
import { shiftedKey, subjectForms } from './match.js';
import { mergeCandidates, type ReviewGuide, ReviewIndex } from './match-review.js';
import { countryOfId, type DecorationReport, type NameForm } from './matcher/index.js';
import type { EntryMatch, ImportWarning, MatchCounts, ReviewCandidate, SourceReport } from './types.js';

/**
 * The playlist entries kept, for the match report: in parallel arrays, not an object each (a
 * 50,000-entry playlist's entries are held while every guide streams).
 */
export class EntryList implements EntrySink {
  readonly #sources: string[] = [];
  #length = 0;
  /** Per entry: its source (by number), line and channel, in arrays sized ahead (reserve). */
  #source = new Int32Array(0);
  #line = new Int32Array(0);
  #channel = new Int32Array(0);
  /** The entry's name, or undefined when it is its channel's. */
  #name: (string | undefined)[] = [];

  get length(): number {
    return this.#length;
  }

  reserve(entries: number): void {
    this.#grow(this.#length + entries);
  }

  add(source: string, line: number, name: string, channel: number): void {
    let s = this.#sources.indexOf(source);
    if (s === -1) s = this.#sources.push(source) - 1;
    const i = this.#length++;
    if (i >= this.#line.length) this.#grow(Math.max(16, 2 * this.#line.length));
    this.#source[i] = s;
    this.#line[i] = line;
    this.#name[i] = name;
    this.#channel[i] = channel;
  }

  /**
   * Replaces each entry's name by `keep(name, channel)`: a copy of its own, or undefined when it
   * is its channel's (names cut from the playlist text would keep all of it alive).
   */
  keepNames(keep: (name: string, channel: number) => string | undefined): void {
    for (let i = 0; i < this.#length; i++) this.#name[i] = keep(this.#name[i]!, this.#channel[i]!);
  }

  /** Entry `i`, its name read from `channels` when it is its channel's. */
  at(i: number, channels: readonly { readonly name: string }[]): EntryRef {
    const channel = this.#channel[i]!;
    return {
      source: this.#sources[this.#source[i]!]!,
      line: this.#line[i]!,
      name: this.#name[i] ?? channels[channel]!.name,
      channel,
    };
  }

  #grow(size: number): void {
    if (size <= this.#line.length) return;
    const grown = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from.subarray(0, this.#length));
      return to;
    };
    this.#source = grown(this.#source);
    this.#line = grown(this.#line);
    this.#channel = grown(this.#channel);
    const names = new Array<string | undefined>(size);
    for (let i = 0; i < this.#length; i++) names[i] = this.#name[i];
    this.#name = names;
  }
}

/** What matching needs of a stored channel. */
export interface MatchChannel extends MatchSubject {
  readonly id: string;
  readonly source: string;
}

export interface MatchInput {
  readonly imp: LiveTvImport;
  readonly index: GuideIndex;
  readonly subjects: readonly MatchChannel[];
  /** The playlist entries kept, in file order, each with its channel's index in `subjects`. */
  readonly entries: EntryList;
  readonly overrides: Overrides;
  /** Guide keys that received a programme in the served window. */
  readonly keysWritten: ReadonlySet<string>;
  /** Guide channel ids whose programmes were kept as the guides streamed. */
  readonly wanted: ReadonlySet<string>;
  readonly maxListed: number;
  readonly warn: (warning: ImportWarning) => void;
  /** Channel `i`'s names as already read (MatchDemand.formsOf), when they were. */
  readonly formsOf?: (i: number) => readonly NameForm[] | undefined;
  /**
   * Called every 100,000 channels resolved, when given: resolving a large playlist's channels
   * leaves much garbage (an import that bounds its memory collects it).
   */
  readonly collect?: () => void;
  /** The channels of guides that failed as a whole in an earlier pass: candidates for review only. */
  readonly review?: readonly ReviewGuide[];
  /** Channel `i`'s names as its playlist's decoration reads them, when that differs (MatchDemand.learnedFormsOf). */
  readonly learnedFormsOf?: (i: number) => readonly NameForm[] | undefined;
  /** The country most of a playlist's prefixes name (its decoration), by source. */
  readonly sourceCountry?: (source: string) => string | undefined;
}

export interface MatchOutcome {
  /** Channels with programmes, by the rule that found their guide channel. */
  readonly matchedBy: MatchCounts;
  /** Names of the first `maxListed` channels without programmes. */
  readonly unmatched: string[];
  /** Guide keys some channel shows (shifted keys included). */
  readonly keysShown: Set<string>;
  /** Guide channel ids some channel resolved to (unshifted). */
  readonly guidesShown: Set<string>;
  /**
   * Every playlist entry with its channel's match, built when called (LiveTvImportResult.matches,
   * which `import --json` prints): an object per entry, 300,000 of them for a large playlist.
   */
  readonly matches: () => EntryMatch[];
}

/**
 * A match by name to a guide channel whose programmes were not kept while the guides streamed is
 * left for review instead. The playlist side asked "could anything score the threshold" through
 * its index, which cannot see two words one letter apart (`indiyskoye` / `indiiskoe`); the
 * scored stage, probing from the playlist's name, sometimes can. And a name read with its
 * playlist's decoration once the guides confirmed only part of it reads in a way the playlist
 * side did not ask for. A channel matched without its programmes would show an empty guide.
 */
function demoted(match: Resolution, wanted: ReadonlySet<string>): Resolution {
  if ((match.rule !== 'scored' && match.rule !== 'normalizedName') || wanted.has(match.key!)) return match;
  return { candidates: [{ id: match.key!, score: match.score ?? 1 }, ...(match.candidates ?? [])].slice(0, 3) };
}

/** Neighbours looked at on each side of a channel left tied, for the country they matched. */
const NEIGHBOURS = 8;

/**
 * The country most of channel `i`'s playlist neighbours (the matched channels before and after
 * it in the same playlist) found their guide channels in, by their ids (`CBC.ca`); undefined
 * when fewer than three say, or no country has most of them.
 */
function neighbourCountry(
  i: number,
  subjects: readonly MatchChannel[],
  countries: (string | undefined)[],
): string | undefined {
  const source = subjects[i]!.source;
  const counts = new Map<string, number>();
  let said = 0;
  for (const step of [-1, 1]) {
    let seen = 0;
    for (let j = i + step; j >= 0 && j < subjects.length && seen < NEIGHBOURS; j += step) {
      if (subjects[j]!.source !== source) break;
      const c = countries[j];
      if (c === undefined) continue;
      seen++;
      said++;
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  for (const [c, n] of counts) if (n >= 3 && n * 2 > said) return c;
  return undefined;
}

/** Left without a guide channel between two or more that its names fit about as well: a tie. */
function tied(match: Resolution, margin: number): boolean {
  const c = match.candidates;
  return (
    match.key === undefined &&
    match.rule === undefined &&
    c !== undefined &&
    c.length >= 2 &&
    c[0]!.score - c[1]!.score < margin
  );
}

/** A channel's resolution with the names the review shows. */
interface Resolved extends Omit<Resolution, 'candidates'> {
  readonly guideName?: string;
  readonly candidates?: readonly ReviewCandidate[];
}

const NO_MATCH: Resolved = Object.freeze({});

/** Channels resolved between two calls of MatchInput's `collect`. */
const COLLECT_EVERY = 100_000;

/** Resolves, stores and reports every channel's guide channel. */
export function matchChannels(input: MatchInput, margin = 0.1): MatchOutcome {
  const { imp, index, subjects, overrides, keysWritten } = input;
  const matchedBy = { override: 0, tvgId: 0, feed: 0, displayName: 0, normalizedName: 0, scored: 0 };
  const unmatched: string[] = [];
  const keysShown = new Set<string>();
  const guidesShown = new Set<string>();
  const resolve = (i: number, country?: string): Resolution => {
    const channel = subjects[i]!;
    const forms = input.formsOf?.(i);
    const learned = input.learnedFormsOf?.(i);
    const more = { ...(learned !== undefined ? { learned } : {}), ...(country !== undefined ? { country } : {}) };
    return demoted(index.resolve(channel, overrides, forms ?? subjectForms(channel), more), input.wanted);
  };
  const found = subjects.map((_, i) => {
    if (i > 0 && i % COLLECT_EVERY === 0) input.collect?.();
    return resolve(i);
  });
  // Ties broken by what the playlist says around the channel: the country most of its
  // neighbours matched, else the one its playlist's prefixes name; else it stays for review.
  const countries = found.map((r) => (r.key === undefined ? undefined : countryOfId(r.key)));
  for (const [i, match] of found.entries()) {
    if (!tied(match, margin)) continue;
    const country = neighbourCountry(i, subjects, countries) ?? input.sourceCountry?.(subjects[i]!.source);
    if (country === undefined) continue;
    const again = resolve(i, country);
    if (again.key !== undefined) found[i] = again;
  }
  const review =
    input.review && input.review.length > 0 ? new ReviewIndex(input.review, (id) => index.has(id)) : undefined;
  const named = (c: { readonly id: string; readonly score: number }): ReviewCandidate => {
    const name = index.namesOf(c.id)?.text;
    return name === undefined ? { id: c.id, score: c.score } : { id: c.id, name, score: c.score };
  };
  const resolved: Resolved[] = found.map((match, i) => {
    let candidates = match.candidates?.map(named);
    // A channel without a guide channel (not one an override pins to none) may have been close to
    // one of a guide that failed as a whole: those are its candidates too.
    if (review && match.rule === undefined && review.size > 0) {
      const more = review.candidates(input.formsOf?.(i) ?? subjectForms(subjects[i]!));
      if (more.length > 0) candidates = mergeCandidates(candidates ?? [], more);
    }
    const guideName = match.key === undefined ? undefined : index.namesOf(match.key)?.text;
    // Kept for the report until it is built: one shared object for the many channels without any.
    if (match.key === undefined && match.rule === undefined && candidates === undefined) return NO_MATCH;
    return {
      ...match,
      ...(guideName !== undefined ? { guideName } : {}),
      ...(candidates !== undefined ? { candidates } : {}),
    };
  });
  for (const [i, channel] of subjects.entries()) {
    const match = resolved[i]!;
    const guideKey = match.key === undefined ? undefined : shiftedKey(match.key, channel.shiftHours);
    if (match.rule === 'override' && match.key !== undefined && !index.has(match.key)) {
      input.warn({
        source: channel.source,
        message: `override for "${channel.name}" names guide channel "${match.key}", which no guide has`,
      });
    }
    if (match.rule !== undefined && guideKey !== undefined && keysWritten.has(guideKey)) matchedBy[match.rule]++;
    else if (unmatched.length < input.maxListed) unmatched.push(channel.name);
    if (guideKey !== undefined) {
      imp.setGuideKey(channel.id, guideKey);
      keysShown.add(guideKey);
      guidesShown.add(match.key!);
    }
    imp.recordMatch({
      channelId: channel.id,
      name: channel.name,
      pin: channel.tvgId ?? channel.tvgName ?? channel.name,
      ...(match.key !== undefined ? { guide: match.key } : {}),
      ...(match.guideName !== undefined ? { guideName: match.guideName } : {}),
      ...(match.rule !== undefined ? { rule: match.rule } : {}),
      ...(match.score !== undefined ? { score: match.score } : {}),
      ...(match.candidates !== undefined ? { candidates: match.candidates } : {}),
    });
  }
  // Made apart from this scope: a closure here would keep `input` (and the matcher's indexes its
  // functions reach) alive for as long as the report is.
  const matches = entryMatches(input.entries, subjects, resolved);
  return { matchedBy, unmatched, keysShown, guidesShown, matches };
}

/** The report's matches of `entries`, built when called, from their channels' `resolved` matches. */
function entryMatches(
  entries: EntryList,
  subjects: readonly MatchChannel[],
  resolved: readonly Resolved[],
): () => EntryMatch[] {
  return () => {
    const list: EntryMatch[] = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries.at(i, subjects);
      const channel = subjects[e.channel]!;
      const match = resolved[e.channel]!;
      list.push({
        source: e.source,
        line: e.line,
        name: e.name,
        channel: channel.id,
        guide: match.key ?? null,
        guideName: match.guideName ?? null,
        rule: match.rule ?? null,
        score: match.rule === 'scored' ? (match.score ?? null) : null,
        candidates: match.rule === undefined || match.rule === 'scored' ? (match.candidates ?? []) : [],
      });
    }
    return list;
  };
}

/** A playlist's report with what it was found to write around its names (`decorations`, by source), when it writes any. */
export function withDecoration(report: SourceReport, decorations: ReadonlyMap<string, DecorationReport>): SourceReport {
  if (report.kind === 'guide') return report;
  const decoration = decorations.get(report.location);
  return decoration === undefined ? report : { ...report, decoration };
}
