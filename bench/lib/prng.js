/**
 * A seeded PRNG (mulberry32): the same seed gives the same data on every machine, so runs on
 * different days differ only in the dates, never in the content.
 */

/** @example const rand = createRandom(42); rand() // 0 ≤ x < 1, same sequence for seed 42 */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** An integer in [min, max]. */
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  /** One element of `list`. */
  next.pick = (list) => list[Math.floor(next() * list.length)];
  /** `count` distinct elements of `list`, in list order. */
  next.some = (list, count) => {
    const chosen = new Set();
    while (chosen.size < Math.min(count, list.length)) chosen.add(Math.floor(next() * list.length));
    return [...chosen].sort((a, b) => a - b).map((i) => list[i]);
  };
  return next;
}

/** A seed for one part of the data (a channel, a movie) so each part can be regenerated alone. */
export function subSeed(seed, index) {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}
