/**
 * The benchmark's data, generated from a seed: movies, channels and their programmes. Every
 * record is derived from (seed, index) alone, so the writers (files for Marquee's import) and the
 * SDK add-on (arrays in memory, as its docs show) produce the same data without sharing files.
 */
import { createRandom, subSeed } from './prng.js';
import { CHANNEL_GROUPS, MOVIE_GENRES, PROGRAMME_CATEGORIES, person, sentence, title, WORDS } from './words.js';

export const SEED = 20_260_301;
const DAY_MS = 86_400_000;

/** The guide's first UTC midnight: yesterday, so "today" has programmes before and after now. */
export function guideStart(now = Date.now()) {
  return Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
}

/** `2026-03-01` for a time in ms. */
export function isoDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

const pad = (n, width) => String(n).padStart(width, '0');

/** A movie as a library item (docs/library-format.md). @example movie(SEED, 0).id === 'tt9000000' */
export function movie(seed, index) {
  const rand = createRandom(subSeed(seed, index));
  const id = `tt9${pad(index, 6)}`;
  const year = rand.int(1950, 2025);
  return {
    id,
    type: 'movie',
    name: title(rand, 1, 4),
    released: `${year}-${pad(rand.int(1, 12), 2)}-${pad(rand.int(1, 28), 2)}`,
    runtime: rand.int(75, 170),
    genres: rand.some(MOVIE_GENRES, rand.int(1, 3)),
    director: [person(rand)],
    cast: [person(rand), person(rand), person(rand), person(rand)],
    imdbRating: Math.round(rand.int(20, 95)) / 10,
    description: sentence(rand, rand.int(120, 360)),
    poster: `https://img.bench.example/poster/${id}.jpg`,
    background: `https://img.bench.example/backdrop/${id}.jpg`,
    streams: [
      { url: `https://cdn.bench.example/movies/${id}/1080p.mp4`, name: 'Bench CDN', description: 'MP4 · 1080p' },
      {
        url: `https://cdn.bench.example/movies/${id}/720p.mp4`,
        name: 'Bench CDN',
        description: 'MP4 · 720p',
      },
    ],
  };
}

/** A playlist channel; its tvg-id is the guide's channel id. */
export function channel(seed, index) {
  const rand = createRandom(subSeed(seed ^ 0x5eed, index));
  const tvgId = `c${pad(index, 5)}.bench.tv`;
  return {
    index,
    tvgId,
    name: `${title(rand, 1, 2)} ${index + 1}`,
    group: CHANNEL_GROUPS[index % CHANNEL_GROUPS.length],
    logo: `https://img.bench.example/logo/${tvgId}.png`,
    chno: index + 1,
    url: `https://live.bench.example/${tvgId}/index.m3u8`,
  };
}

/**
 * The programmes of one channel: `perDay` back-to-back slots per UTC day from `start`.
 * `verbosity: 'compact'` (served datasets) or `'full'` (the import benchmark: sub-titles, long
 * descriptions, categories, episode numbers, icons, as real guides carry).
 */
export function programmes(seed, channelIndex, { start, days, perDay, verbosity }) {
  const rand = createRandom(subSeed(seed ^ 0x7a11, channelIndex));
  const full = verbosity === 'full';
  const slot = DAY_MS / perDay;
  const out = [];
  for (let i = 0; i < days * perDay; i++) {
    const p = {
      start: start + i * slot,
      stop: start + (i + 1) * slot,
      title: title(rand, 1, 3),
      categories: rand.some(PROGRAMME_CATEGORIES, full ? rand.int(1, 2) : 1),
    };
    // Compact keeps a 100-channel guide day near 1 MB of JSON, as the issue sizes it.
    if (rand() < (full ? 0.7 : 0.3)) p.subTitle = title(rand, 2, 4);
    if (full || rand() < 0.25) p.desc = sentence(rand, full ? rand.int(80, 180) : rand.int(30, 60));
    if (full) {
      if (rand() < 0.6) p.episode = { season: rand.int(1, 12), episode: rand.int(1, 24) };
      p.icon = `https://img.bench.example/p/${channelIndex}/${i}.jpg`;
      if (rand() < 0.3) p.date = String(rand.int(1980, 2025));
    }
    out.push(p);
  }
  return out;
}

/** A word that many movie names contain, for the search case. */
export const SEARCH_WORD = WORDS.includes('star') ? 'star' : WORDS[0];
