/**
 * The same add-on written with the official stremio-addon-sdk, the way its documentation shows:
 * the data in arrays, `addonBuilder` with one handler per resource that filters those arrays,
 * served by the SDK's `getRouter` on node:http (bound to 127.0.0.1; `serveHTTP` would listen on
 * every interface). The guide has no SDK concept: it is a `tv` catalog with a `date` extra whose
 * handler picks each channel's programmes of that day, as an SDK author would write it.
 *
 * Usage: node bench/servers/sdk-addon.js '{"seed":1,"movies":2000,"channels":500,"start":0,"days":7,"perDay":48}'
 * Prints `listening http://127.0.0.1:PORT` when ready.
 */
import { createServer } from 'node:http';
import sdk from 'stremio-addon-sdk';
import { channel, movie, programmes } from '../lib/dataset.js';
import { CHANNEL_GROUPS, MOVIE_GENRES } from '../lib/words.js';

const spec = JSON.parse(process.argv[2]);
const { addonBuilder, getRouter } = sdk;
const DAY_MS = 86_400_000;
const GUIDE_CACHE = { cacheMaxAge: 300, staleRevalidate: 1800, staleError: 604800 };
const LIBRARY_CACHE = { cacheMaxAge: 3600, staleRevalidate: 86400, staleError: 604800 };

// Data as an SDK add-on holds it: plain arrays built at start.
const movies = Array.from({ length: spec.movies }, (_, i) => movie(spec.seed, i));
movies.sort((a, b) => (a.released < b.released ? 1 : a.released > b.released ? -1 : a.id < b.id ? -1 : 1));
const channels = Array.from({ length: spec.channels }, (_, i) => channel(spec.seed, i));
const schedule = channels.map((_, i) => programmes(spec.seed, i, { ...spec, verbosity: 'compact' }));

const preview = (m) => ({
  id: m.id,
  type: 'movie',
  name: m.name,
  poster: m.poster,
  genres: m.genres,
  releaseInfo: m.released.slice(0, 4),
  imdbRating: m.imdbRating.toFixed(1),
  description: m.description.length > 300 ? `${m.description.slice(0, 297)}…` : m.description,
});

const fullMeta = (m) => ({
  id: m.id,
  type: 'movie',
  name: m.name,
  poster: m.poster,
  background: m.background,
  description: m.description,
  releaseInfo: m.released.slice(0, 4),
  released: new Date(`${m.released}T00:00:00Z`).toISOString(),
  runtime: `${m.runtime} min`,
  genres: m.genres,
  cast: m.cast,
  director: m.director,
  imdbRating: m.imdbRating.toFixed(1),
});

const channelPreview = (c) => ({
  id: `mq-tv:${c.tvgId}`,
  type: 'tv',
  name: c.name,
  posterShape: 'square',
  poster: c.logo,
  logo: c.logo,
  genres: [c.group],
  behaviorHints: { isLive: true },
});

function guideChannel(c, dayStart) {
  const dayEnd = dayStart + DAY_MS - 1;
  const id = `mq-tv:${c.tvgId}`;
  const videos = schedule[c.index]
    .filter((p) => p.stop > dayStart && p.start < dayEnd)
    .map((p) => {
      const start = new Date(p.start).toISOString();
      return {
        id: `${id}:epg:${start}`,
        title: p.subTitle ? `${p.title} — ${p.subTitle}` : p.title,
        released: start,
        startTime: start,
        endTime: new Date(p.stop).toISOString(),
        runtime: `${Math.round((p.stop - p.start) / 60000)} min`,
        ...(p.desc ? { overview: p.desc } : {}),
        genres: p.categories,
      };
    });
  return {
    ...channelPreview(c),
    behaviorHints: { isLive: true, hasScheduledVideos: true },
    videos,
  };
}

const builder = new addonBuilder({
  id: 'org.bench.sdk',
  version: '1.0.0',
  name: 'SDK bench',
  description: 'The Marquee benchmark data served by stremio-addon-sdk',
  resources: ['catalog', 'meta', 'stream'],
  types: ['movie', 'tv'],
  idPrefixes: ['tt', 'mq-tv:'],
  catalogs: [
    {
      type: 'movie',
      id: 'movies',
      name: 'Movies',
      extra: [{ name: 'search' }, { name: 'genre', options: MOVIE_GENRES }, { name: 'skip' }],
    },
    {
      type: 'tv',
      id: 'mq-tv-channels',
      name: 'Live TV',
      extra: [{ name: 'genre', options: CHANNEL_GROUPS }, { name: 'search' }, { name: 'skip' }, { name: 'date' }],
    },
  ],
});

builder.defineCatalogHandler(({ type, id, extra }) => {
  const skip = Number(extra.skip) || 0;
  if (type === 'movie' && id === 'movies') {
    let list = movies;
    if (extra.genre) list = list.filter((m) => m.genres.includes(extra.genre));
    if (extra.search) {
      // Marquee searches name, cast, director and description with name matches first; do the same work.
      const q = extra.search.toLowerCase();
      const inName = (m) => m.name.toLowerCase().includes(q);
      list = list
        .filter((m) => inName(m) || [...m.cast, ...m.director, m.description].some((t) => t.toLowerCase().includes(q)))
        .sort((a, b) => Number(inName(b)) - Number(inName(a)));
    }
    return Promise.resolve({ metas: list.slice(skip, skip + 100).map(preview), ...LIBRARY_CACHE });
  }
  if (type === 'tv' && id === 'mq-tv-channels') {
    let list = channels;
    if (extra.genre) list = list.filter((c) => c.group === extra.genre);
    if (extra.search) {
      const q = extra.search.toLowerCase();
      list = list.filter((c) => c.name.toLowerCase().includes(q));
    }
    const page = list.slice(skip, skip + 100);
    if (extra.date) {
      const dayStart = Date.parse(`${extra.date}T00:00:00.000Z`);
      return Promise.resolve({ metasDetailed: page.map((c) => guideChannel(c, dayStart)), ...GUIDE_CACHE });
    }
    return Promise.resolve({ metas: page.map(channelPreview) });
  }
  return Promise.resolve({ metas: [] });
});

builder.defineMetaHandler(({ type, id }) => {
  const found = type === 'movie' ? movies.find((m) => m.id === id) : undefined;
  return Promise.resolve(found ? { meta: fullMeta(found), ...LIBRARY_CACHE } : { meta: null });
});

builder.defineStreamHandler(({ type, id }) => {
  const found = type === 'movie' ? movies.find((m) => m.id === id) : undefined;
  return Promise.resolve(found ? { streams: found.streams, ...LIBRARY_CACHE } : { streams: [] });
});

const router = getRouter(builder.getInterface());
const server = createServer((req, res) => {
  router(req, res, () => {
    res.statusCode = 404;
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
