/**
 * The matching benchmark's large data: a 20,000-channel guide and a 50,000-entry playlist
 * (25,000 channels, two streams each) without tvg-ids, so every channel is found by its name or
 * not at all, at real-world shapes. Channels come in families of a brand (`Korvel`, `Korvel
 * Sport 1`, `Korvel Sport 2`, `Korvel News`, `Korvel Movies East`) so names share words the way
 * real guides' do; the playlist writes them as providers' panels do (`|DE| KORVEL SPORT 1 FHD`).
 * Of the playlist's channels about 45% read as a guide name (the exact rules find them), 25%
 * need the scored stage (a feed word or `TV` added, a spelling loosened), 30% have no guide
 * channel (brands the guide does not carry). Derived from the seed alone.
 */

import { programmes } from './dataset.js';
import { createRandom, subSeed } from './prng.js';
import { WORDS } from './words.js';
import { writeChunks } from './write-data.js';

export const MATCHING_SIZES = {
  guideChannels: 20_000,
  playlistChannels: 25_000,
  entriesPerChannel: 2,
  days: 2,
  perDay: 24,
};

const SYLLABLES = 'ka ko ru vel ta mi ne so lar den bri zu fo gan tel ori sam pa lo vik dra mon ser ul yan'.split(' ');
const GENRES = ['Sport', 'News', 'Movies', 'Kids', 'Music', 'Docs', 'Comedy', 'Drama', 'Life', 'Action'];
const FEEDS = ['East', 'West', 'Latin America', 'Europe', 'Deutschland', 'Arabic', 'International'];
const PREFIXES = ['UK: ', '|DE| ', '[FR] ', 'US - ', 'IT| ', 'ES ● ', 'NL ★ ', ''];
const TAGS = ['', ' HD', ' FHD', ' 4K', ' HEVC', ' ᴴᴰ', ' (1080p)', ' HD+', ' 1080p50'];
/** Brands the guide carries, and as many again that only the playlist has. */
const BRANDS = 4_000;

const cap = (w) => w[0].toUpperCase() + w.slice(1);

/** Two- and three-syllable words, in an order drawn from the seed (cached for the last seed). */
let brandOrder;

/**
 * Brand `b`'s name: a word of two or three syllables, every brand its own (a guide rarely names
 * two different channels alike; until 2026-11-28 brands were drawn freely, and one guide channel
 * in five shared its name with another of another brand).
 */
function brand(seed, b) {
  if (brandOrder?.seed !== seed) {
    const order = Array.from({ length: 25 ** 2 + 25 ** 3 }, (_, i) => i);
    const rand = createRandom(subSeed(seed ^ 0xb4a4d, 0));
    for (let i = order.length - 1; i > 0; i--) {
      const j = rand.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
    brandOrder = { seed, order };
  }
  let k = brandOrder.order[b];
  const syllables = k < 25 ** 2 ? 2 : 3;
  if (syllables === 3) k -= 25 ** 2;
  let word = '';
  for (let i = 0; i < syllables; i++) {
    word += SYLLABLES[k % 25];
    k = Math.floor(k / 25);
  }
  return cap(word);
}

/** Guide channel `i`: one of its brand's family, with one or two display names. */
export function guideChannel(seed, i) {
  const rand = createRandom(subSeed(seed ^ 0x9ade, i));
  const b = i % BRANDS;
  const member = Math.floor(i / BRANDS);
  let name = brand(seed, b);
  if (member > 0) {
    name += ` ${GENRES[(member + b) % GENRES.length]}`;
    if (rand() < 0.3) name += ` ${rand.int(1, 4)}`;
    if (rand() < 0.2) name += ` ${rand.pick(WORDS).replace(/^./, (c) => c.toUpperCase())}`;
  }
  const names = [name];
  if (rand() < 0.4) names.push(`${name} HD`);
  return { id: `g${String(i).padStart(5, '0')}.bench.tv`, names };
}

/** Playlist channel `j`: a guide channel's name as a panel writes it, a variant of one, or a brand the guide lacks. */
export function playlistChannel(seed, j) {
  const rand = createRandom(subSeed(seed ^ 0x91a7, j));
  const kind = rand();
  let name;
  if (kind < 0.7) {
    const base = guideChannel(seed, rand.int(0, MATCHING_SIZES.guideChannels - 1)).names[0];
    name = base;
    if (kind >= 0.45) {
      // A variant only the scored stage finds.
      const how = rand();
      if (how < 0.5) name = `${base} ${rand.pick(FEEDS)}`;
      else if (how < 0.75) name = `${base} TV`;
      else name = base.replace(/k/g, 'c').replace(/K/g, 'C') + (base.includes('k') || base.includes('K') ? '' : ' TV');
    }
  } else {
    name = `${brand(seed, BRANDS + (j % BRANDS))}${rand() < 0.5 ? ` ${rand.pick(GENRES)}` : ''}`;
  }
  let shown = `${rand.pick(PREFIXES)}${name}${rand.pick(TAGS)}`;
  if (rand() < 0.2) shown = shown.toUpperCase();
  return {
    name: shown,
    /** The name before a panel's prefix, tag and case (for the benchmark's decorated copy). */
    base: name,
    group: GENRES[j % GENRES.length],
    url: `https://live.bench.example/m/${j}/index.m3u8`,
  };
}

const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The playlist: every channel twice (two streams), names only; `rename(channel, j)`, when given,
 * writes each channel's name another way (the benchmark's copy in decorations nobody chose).
 */
export function writeMatchingPlaylist(path, seed, rename) {
  const { playlistChannels, entriesPerChannel } = MATCHING_SIZES;
  return writeChunks(path, async (write) => {
    await write('#EXTM3U\n');
    for (let j = 0; j < playlistChannels; j++) {
      const c = playlistChannel(seed, j);
      const name = rename ? rename(c, j) : c.name;
      for (let k = 0; k < entriesPerChannel; k++) {
        await write(`#EXTINF:-1 group-title="${c.group}",${name}\n${c.url}${k > 0 ? `?backup=${k}` : ''}\n`);
      }
    }
  });
}

/** The guide: 20,000 channels with their names, then 2 days × 24 compact programmes each. */
export function writeMatchingGuide(path, seed, start) {
  const { guideChannels, days, perDay } = MATCHING_SIZES;
  return writeChunks(path, async (write) => {
    await write('<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="marquee bench matching">\n');
    for (let i = 0; i < guideChannels; i++) {
      const c = guideChannel(seed, i);
      await write(
        `  <channel id="${c.id}">${c.names.map((n) => `<display-name>${xml(n)}</display-name>`).join('')}</channel>\n`,
      );
    }
    for (let i = 0; i < guideChannels; i++) {
      const id = guideChannel(seed, i).id;
      for (const p of programmes(seed, i, { start, days, perDay, verbosity: 'compact' })) {
        const stamp = (ms) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)} +0000`;
        let s = `  <programme start="${stamp(p.start)}" stop="${stamp(p.stop)}" channel="${id}"><title>${xml(p.title)}</title>`;
        if (p.desc) s += `<desc>${xml(p.desc)}</desc>`;
        await write(`${s}</programme>\n`);
      }
    }
    await write('</tv>\n');
  });
}
