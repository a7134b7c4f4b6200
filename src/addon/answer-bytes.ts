/**
 * The byte bound of an answer built from stored data (issue 48, `addon.maxAnswerBytes`). Counts
 * bound what one item holds (names, texts, streams, programmes a day), but not what a page of
 * them adds up to: a guide page of ten channels of long descriptions was 42 MB, a series of
 * 50,000 episodes a 5.6 MB meta, and four such answers in flight held every other request up.
 * A backend ends a list early when the next item would pass the bound (the client's `skip` is
 * the running count of items received, so its next page starts where this one ended; only an
 * empty page ends its paging) and cuts a meta's videos; sizes are measured where the backend
 * knows them cheaply (stored JSON texts, raw guide entries), with `itemsWithin`'s quick estimate
 * first.
 */
import { MarqueeError } from '../errors.js';

/** The default bound of an answer built from stored data: 4 MiB (a 100-channel guide page is about 1-3 MB). */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The smallest bound allowed: one item of any list always fits (a channel or title is at most some tens of KB). */
export const MIN_ANSWER_BYTES = 64 * 1024;

/** The setting, as messages and docs name it. */
export const MAX_ANSWER_BYTES_SETTING = 'addon.maxAnswerBytes';

/**
 * How many of `items`, in order, fit in a JSON list of at most `maxBytes` (its brackets and
 * commas counted): `quick` is an upper estimate of an item's bytes (string lengths times three,
 * say); only when the quick sum passes the bound is `exact` asked, item by item. At least one
 * item is kept when there is one (an empty page would end the client's paging); the caller
 * cuts that item when it alone is too large.
 * @example itemsWithin(metas, 4_194_304, (m) => 3 * m.name.length + 200) // metas.length on a normal page
 */
export function itemsWithin<T>(
  items: readonly T[],
  maxBytes: number,
  quick: (item: T) => number,
  exact: (item: T) => number = quick,
): number {
  let total = 1;
  for (const item of items) total += quick(item) + 1;
  if (total <= maxBytes) return items.length;
  total = 1;
  for (let i = 0; i < items.length; i++) {
    total += exact(items[i]!) + 1;
    if (total > maxBytes) return Math.max(1, i);
  }
  return items.length;
}

/** A bound given as an option: the default when unset, checked to be a whole number of at least MIN_ANSWER_BYTES. */
export function answerBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return DEFAULT_MAX_ANSWER_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < MIN_ANSWER_BYTES) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `${MAX_ANSWER_BYTES_SETTING} must be a whole number of at least ${MIN_ANSWER_BYTES}, got ${maxBytes}`,
    );
  }
  return maxBytes;
}
