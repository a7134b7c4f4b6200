import { isReleased, toDateTime } from './released.js';

/**
 * Ids for items the library file does not name. They must be stable across imports (users
 * keep them in their client library and watch history), so they derive only from what the
 * item says about itself: `mq:` + slug(type, name, year).
 */

export const GENERATED_ID_PREFIX = 'mq:';

/** Lower-case letters and digits of any script, accents dropped, runs of anything else → `-`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The generated id of an item: `generatedItemId('movie', 'Amélie', 2001)` → `mq:movie-amelie-2001`.
 * Two items with the same type, name and year collide; the readers report it as a duplicate.
 */
export function generatedItemId(type: string, name: string, year?: number | string): string {
  const parts = [type, name, year === undefined ? '' : String(year)].map(slugify).filter((p) => p !== '');
  return GENERATED_ID_PREFIX + parts.join('-');
}

/** The id of an episode without its own: `episodeId('tt0944947', 1, 2)` → `tt0944947:1:2`. */
export function episodeId(seriesId: string, season: number, episode: number): string {
  return `${seriesId}:${season}:${episode}`;
}

/** The year an item is known by: from `released` (any accepted form), else a leading year of `releaseInfo`. */
export function itemYear(released: unknown, releaseInfo: unknown): string | undefined {
  // Through toDateTime, so the raw value (CSV series lookup) and the normalised one agree.
  if ((typeof released === 'string' || typeof released === 'number') && isReleased(released)) {
    return toDateTime(released).slice(0, 4);
  }
  if (typeof releaseInfo === 'string' && /^\d{4}/.test(releaseInfo)) return releaseInfo.slice(0, 4);
  return undefined;
}
