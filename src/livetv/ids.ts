/**
 * Stable public channel ids. An installed user's library and links hold these ids, so they must
 * not change when the playlist is re-read, re-ordered or grows: an id depends only on the
 * channel's own tvg-id (else its name), never on its position.
 */
import { createHash } from 'node:crypto';

export const CHANNEL_PREFIX = 'mq-tv:';

/** Longest slug kept: ids travel in every URL path. */
const MAX_SLUG = 80;

/**
 * Lower-case letters and digits of any script, dots kept, every other run as one `-`. Accents
 * are dropped from Latin letters only (é → e), since in other scripts a mark makes another
 * letter (й is not и).
 * @example slugify('BBC One HD') // 'bbc-one-hd'
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/[-.]+$/, '');
}

/** Six base-36 characters of the SHA-1 of `text`: short, deterministic, collision-resistant enough per playlist. */
function shortHash(text: string): string {
  return BigInt(`0x${createHash('sha1').update(text).digest('hex').slice(0, 12)}`)
    .toString(36)
    .padStart(6, '0')
    .slice(-6);
}

/** What a channel's id is derived from: its tvg-id, else its (normalised) name. */
export interface IdSource {
  readonly kind: 'tvg-id' | 'name';
  readonly value: string;
}

/**
 * Ids for channel keys, in the given order. Keys whose slugs collide (or are empty) get a hash of
 * their key: the tvg-id-based one, then the smallest key, keeps the plain slug, so the outcome
 * does not depend on playlist order.
 * @example assignChannelIds([{ kind: 'tvg-id', value: 'BBCOne.uk' }]) // ['mq-tv:bbcone.uk']
 */
export function assignChannelIds(sources: readonly IdSource[]): string[] {
  return assignIds(
    sources.length,
    (i) => sources[i]!.kind === 'tvg-id',
    (i) => sources[i]!.value,
  );
}

/**
 * `assignChannelIds` over `count` keys read by index (no object per key: a playlist may make
 * 300,000 channels): key `i` is a tvg-id when `isTvgId(i)`, its value `valueAt(i)`. One map of
 * plain slugs to the key holding each; only the keys that lose one are listed.
 */
export function assignIds(count: number, isTvgId: (i: number) => boolean, valueAt: (i: number) => string): string[] {
  const source = (i: number): IdSource => ({ kind: isTvgId(i) ? 'tvg-id' : 'name', value: valueAt(i) });
  const holder = new Map<string, number>();
  const losers: number[] = [];
  for (let i = 0; i < count; i++) {
    const slug = slugify(valueAt(i));
    if (slug === '') {
      losers.push(i);
      continue;
    }
    const held = holder.get(slug);
    if (held === undefined) holder.set(slug, i);
    else if (rank(source(i), source(held)) < 0) {
      holder.set(slug, i);
      losers.push(held);
    } else losers.push(i);
  }
  const ids = new Array<string>(count);
  // Joined, an id is one flat string; `+` made a pair of strings that became three once flattened.
  for (const [slug, i] of holder) ids[i] = [CHANNEL_PREFIX, slug].join('');
  // Hashed ids are given after every plain slug is taken, so a hash never steals a plain id.
  const hashed = new Set<string>();
  for (const index of losers.sort((a, b) => a - b)) {
    const key = source(index);
    const slug = slugify(key.value);
    const base = slug === '' ? 'ch' : slug;
    let salt = '';
    let id = `${base}-${shortHash(`${key.kind}:${key.value}`)}`;
    while (holder.has(id) || hashed.has(id)) {
      salt += '+';
      id = `${base}-${shortHash(`${key.kind}:${key.value}${salt}`)}`;
    }
    ids[index] = CHANNEL_PREFIX + id;
    hashed.add(id);
  }
  return ids;
}

function rank(a: IdSource, b: IdSource): number {
  if (a.kind !== b.kind) return a.kind === 'tvg-id' ? -1 : 1;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}
