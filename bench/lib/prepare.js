/**
 * The benchmark's files under bench/.data/<guide start day>/ (gitignored): generated once per
 * day and reused by later runs that day (the content depends only on the seed, the sizes and the
 * day). Folders of earlier days are removed.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { guideStart, isoDay, SEED } from './dataset.js';
import { cached, writeLibrary, writeM3u, writeXmltv } from './write-data.js';

/** Bump when the generator's output changes, so stale files are not reused. */
const GENERATOR_VERSION = 1;

export const SIZES = {
  movies: 2_000,
  channels: 500,
  largeChannels: 10_000,
  importChannels: 2_000,
  importPlaylistEntries: 50_000,
  importPlaylistChannels: 25_000,
  days: 7,
  perDay: 48,
};

/** The day folder, with older day folders removed. */
export function dataDir(root, now = Date.now()) {
  const base = join(root, 'bench/.data');
  const day = `${isoDay(guideStart(now))}-v${GENERATOR_VERSION}`;
  mkdirSync(join(base, day), { recursive: true });
  for (const entry of readdirSync(base)) {
    if (entry !== day && /^\d{4}-\d\d-\d\d-v\d+$/.test(entry))
      rmSync(join(base, entry), { recursive: true, force: true });
  }
  return join(base, day);
}

const guide = (channels, verbosity, start) => ({
  channels,
  start,
  days: SIZES.days,
  perDay: SIZES.perDay,
  verbosity,
});

/** The served dataset: 2,000 movies, 500 channels with 7 days of programmes. */
export async function servedData(dir, start) {
  const library = await cached(join(dir, `library-${SIZES.movies}.json`), (p) => writeLibrary(p, SEED, SIZES.movies));
  const playlist = await cached(join(dir, `tv-${SIZES.channels}.m3u`), (p) =>
    writeM3u(p, SEED, { channels: SIZES.channels, entries: SIZES.channels }),
  );
  const epg = await cached(join(dir, `tv-${SIZES.channels}-compact.xml`), (p) =>
    writeXmltv(p, SEED, guide(SIZES.channels, 'compact', start)),
  );
  return { library, playlist, epg };
}

/**
 * The large store's sources: 10,000 channels, 7 days (about 0.75 GB of XMLTV, over the default
 * 512 MB source limit, so a settings file raises it).
 */
export async function largeData(dir, start) {
  const n = SIZES.largeChannels;
  const playlist = await cached(join(dir, `tv-${n}.m3u`), (p) => writeM3u(p, SEED, { channels: n, entries: n }));
  const epg = await cached(join(dir, `tv-${n}-compact.xml`), (p) => writeXmltv(p, SEED, guide(n, 'compact', start)));
  const config = join(dir, 'large-settings.json');
  writeFileSync(config, JSON.stringify({ sources: { maxMegabytes: 4096 } }));
  return { playlist, epg, config };
}

/** The import benchmark's sources: a ~370 MB 2,000-channel guide at real-world verbosity, a 50,000-entry playlist. */
export async function importData(dir, start) {
  const playlist = await cached(join(dir, `import-${SIZES.importPlaylistEntries}.m3u`), (p) =>
    writeM3u(p, SEED, { channels: SIZES.importPlaylistChannels, entries: SIZES.importPlaylistEntries }),
  );
  const epg = await cached(join(dir, `import-${SIZES.importChannels}-full.xml`), (p) =>
    writeXmltv(p, SEED, guide(SIZES.importChannels, 'full', start)),
  );
  return { playlist, epg };
}

export { guideStart, isoDay, SEED };
