/**
 * The catalog both Workers of the CPU benchmark serve: 1,000 films of the HTTP benchmark's data
 * (lib/dataset.js) as previews, built when the isolate loads; a page is 100 of them.
 */
import { movie, SEED } from '../lib/dataset.js';

export const PAGE = 100;

export const PREVIEWS = Array.from({ length: 1_000 }, (_, i) => {
  const m = movie(SEED, i);
  return {
    id: m.id,
    type: 'movie',
    name: m.name,
    poster: m.poster,
    genres: m.genres,
    releaseInfo: m.released.slice(0, 4),
    description: m.description,
  };
});

/** The page at `skip`, as both serve it. */
export const pageAt = (skip) => PREVIEWS.slice(skip, skip + PAGE);
