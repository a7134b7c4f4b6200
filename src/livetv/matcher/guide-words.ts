/**
 * How often the guides' names hold a word: what a playlist's learned decoration is checked
 * against once every guide has been read (decoration.ts). A word a playlist writes around many
 * of its names is decoration only when the guides' names rarely hold it.
 */
import type { NameForm } from './form.js';

/** How many of the guides' channels have a name holding a word. */
export interface GuideWords {
  readonly channels: number;
  /** Per word of `words` (folded tokens), how many guide channels have a name that holds it. */
  counts(words: ReadonlySet<string>): ReadonlyMap<string, number>;
  /** Every number a guide name holds as a word. */
  readonly numbers: ReadonlySet<string>;
}

/** The guides' words (GuideWords) of `channels` channels, `namesOf(c)` the forms of channel `c`'s names. */
export function guideWords(
  channels: number,
  namesOf: (c: number) => Iterable<NameForm>,
  forms: readonly NameForm[],
): GuideWords {
  let numbers: Set<string> | undefined;
  return {
    channels,
    counts(words) {
      const counts = new Map<string, number>();
      if (words.size === 0) return counts;
      const seen = new Set<string>();
      for (let c = 0; c < channels; c++) {
        seen.clear();
        for (const form of namesOf(c)) for (const t of form.tokens) if (words.has(t)) seen.add(t);
        for (const t of seen) counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      return counts;
    },
    get numbers() {
      if (numbers === undefined) {
        numbers = new Set<string>();
        for (const form of forms) for (const t of form.tokens) if (/^\d+$/.test(t)) numbers.add(t);
      }
      return numbers;
    },
  };
}
