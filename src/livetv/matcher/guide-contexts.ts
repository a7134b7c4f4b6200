/**
 * What the scored stage knows of a whole guide, once every guide has been read: how often each
 * word names a channel (a word one channel alone has may stand for a dial number the guide
 * leaves out), and which names other channels extend with feed words (`BBC One` beside `BBC One
 * Scotland`: then a feed word tells channels apart).
 */
import type { NameForm } from './form.js';
import type { GuideContext } from './score.js';

/** What the scored stage knows of the whole guide, computed once every guide has been read. */
export interface Frozen {
  /** Keys of names that other channels' names extend with feed words (`bbc1` of `BBC One Scotland`). */
  readonly bases: Set<string>;
  /** Keys of names that extend another channel's name with feed words (`mgm+east` beside `MGM+`). */
  readonly variants: Set<string>;
  /** By (variants ? 1 : 0) + (a variant itself ? 2 : 0). */
  readonly contexts: readonly GuideContext[];
  /** Per name number, the index of its context in `contexts`. */
  readonly contextOf: Uint8Array;
}

/**
 * The contexts of a guide of `channels` channels, `namesOf(c)` the forms of channel `c`'s names,
 * `keys` every name's key, `forms` every name by its number.
 */
export function frozenContexts(
  channels: number,
  namesOf: (c: number) => Iterable<NameForm>,
  keys: ReadonlyMap<string, unknown>,
  forms: readonly NameForm[],
): Frozen {
  const df = new Map<string, number>();
  const bases = new Set<string>();
  const variants = new Set<string>();
  for (let c = 0; c < channels; c++) {
    const own = new Set<string>();
    const tokens = new Set<string>();
    for (const form of namesOf(c)) {
      own.add(form.key);
      for (const t of form.tokens) tokens.add(t);
    }
    for (const t of tokens) df.set(t, (df.get(t) ?? 0) + 1);
    for (const form of namesOf(c)) {
      const base = form.baseKey;
      // `Angel TV Arabia` beside `Angel TV` in one channel is that channel's own feed, not a variant.
      if (base === undefined || own.has(base)) continue;
      bases.add(base);
      if (keys.has(base)) variants.add(form.key);
    }
  }
  const unique = (t: string) => df.get(t) === 1;
  const context = (variants: boolean, timeFeeds: boolean): GuideContext => ({ variants, timeFeeds, unique });
  const contextOf = new Uint8Array(forms.length);
  for (let n = 0; n < forms.length; n++) {
    const key = forms[n]!.key;
    contextOf[n] = (bases.has(key) ? 1 : 0) + (variants.has(key) ? 2 : 0);
  }
  return {
    bases,
    variants,
    contexts: [context(false, true), context(true, true), context(false, false), context(true, false)],
    contextOf,
  };
}
