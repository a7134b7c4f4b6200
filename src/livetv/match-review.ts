/**
 * What the review of matches needs beyond the matches themselves (issue 46): each guide channel
 * with its display name, and the channels of a guide that failed as a whole. Such a guide ("gives
 * nothing": none of its channels matches a playlist channel, or its programmes are out of date)
 * is left out of the import that serves, so nothing of it would reach `marquee status --matches`,
 * and the ids `guideOverrides` needs to make it give something would appear nowhere. Its channels
 * are kept from the pass that read it, for review only: they are candidates of the channels
 * without a guide channel, never a match.
 */

import type { GuideIndex } from './match.js';
import { GuideNames, type NameForm } from './matcher/index.js';
import type { ReviewCandidate } from './types.js';

/** Channels of failed guides kept for review, at most (LiveTvImportOptions.maxReviewChannels). */
export const MAX_REVIEW_CHANNELS = 20_000;

/**
 * Least score of a candidate found in a failed guide. Below it the closest guide channel of a
 * channel without one is almost never its own (labelled dev set, docs/livetv.md), and a lower
 * bound would have each search score many more names.
 */
const REVIEW_FLOOR = 0.5;

/** A guide channel of a failed guide: its id, first display name and names read. */
interface ReviewChannel {
  readonly id: string;
  readonly name: string;
  readonly forms: NameForm[];
}

/** The channels of the guides that failed as a whole in the first pass, by guide. */
export interface ReviewGuide {
  /** The guide as reported (credentials redacted). */
  readonly label: string;
  readonly channels: readonly ReviewChannel[];
}

/**
 * Keeps, of each guide in `failed` (label and the ids of its channels), the channels with names
 * as `index` read them, `max` in all.
 */
export function keepForReview(
  failed: readonly { readonly label: string; readonly channelIds: Iterable<string> }[],
  index: GuideIndex,
  max: number = MAX_REVIEW_CHANNELS,
): ReviewGuide[] {
  const out: ReviewGuide[] = [];
  let kept = 0;
  for (const guide of failed) {
    const channels: ReviewChannel[] = [];
    for (const id of guide.channelIds) {
      if (kept >= max) break;
      const names = index.namesOf(id);
      if (names === undefined || names.forms.length === 0) continue;
      channels.push({ id, name: names.text, forms: [...names.forms] });
      kept++;
    }
    if (channels.length > 0) out.push({ label: guide.label, channels });
  }
  return out;
}

/** The failed guides' channels, searchable by a playlist channel's names. */
export class ReviewIndex {
  readonly #names = new GuideNames(true);
  readonly #text = new Map<string, { name: string; guide: string }>();

  /** `guides`' channels, but for those `known` has (a guide that imported decided them). */
  constructor(guides: readonly ReviewGuide[], known: (id: string) => boolean) {
    for (const guide of guides) {
      for (const c of guide.channels) {
        if (known(c.id) || this.#text.has(c.id)) continue;
        this.#text.set(c.id, { name: c.name, guide: guide.label });
        this.#names.add(c.id, [c.name], 0, c.forms);
      }
    }
  }

  get size(): number {
    return this.#text.size;
  }

  /** The failed guides' channels closest to a channel read as `forms`, best first (at most 3). */
  candidates(forms: readonly NameForm[]): ReviewCandidate[] {
    if (this.#text.size === 0 || forms.length === 0) return [];
    const found = this.#names.scored(forms, { threshold: REVIEW_FLOOR, margin: 0 });
    const all = [...(found.chosen ? [found.chosen] : []), ...found.candidates];
    return all
      .filter((c) => c.score >= REVIEW_FLOOR)
      .map((c) => {
        const t = this.#text.get(c.id)!;
        return { id: c.id, name: t.name, score: c.score, failedGuide: t.guide };
      });
  }
}

/**
 * The closest guide channels of two lists merged, best first (a tie keeps `a` first), at most
 * `max`, each id once.
 */
export function mergeCandidates(
  a: readonly ReviewCandidate[],
  b: readonly ReviewCandidate[],
  max = 3,
): ReviewCandidate[] {
  const seen = new Set<string>();
  const out: ReviewCandidate[] = [];
  for (const c of [...a, ...b].sort((x, y) => y.score - x.score)) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push(c);
    if (out.length === max) break;
  }
  return out;
}
