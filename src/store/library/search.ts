/**
 * User search text → an FTS5 query that cannot fail. Every word is quoted, so FTS5 syntax typed
 * by a user (`"`, `AND (`, `NEAR`, `*`, `-`, `:`) is only text; the words are ANDed, and the last
 * one matches as a prefix (`"amel"*` finds "Amélie") since users type the last word partially.
 * The tokenizer (`unicode61 remove_diacritics 2`) folds case and accents on both sides.
 */

/** More words than this are ignored: each one is an index lookup. */
export const MAX_SEARCH_TERMS = 12;
/** A longer word is cut: no real title word is that long, and the cut still matches as a prefix. */
export const MAX_TERM_CHARS = 64;

/** Bm25 weights per column (name, cast, director, description): a match in the name counts most. */
export const SEARCH_WEIGHTS = [10, 2, 2, 1] as const;

/**
 * The FTS5 query for `text`, or undefined when it has no word to search for.
 *
 * @example ftsQuery('Amélie  poul') === '"Amélie" "poul"*'
 */
export function ftsQuery(text: string): string | undefined {
  const words = text.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu);
  if (!words) return undefined;
  const terms = words.slice(0, MAX_SEARCH_TERMS).map((w) => `"${[...w].slice(0, MAX_TERM_CHARS).join('')}"`);
  return `${terms.join(' ')}*`;
}
