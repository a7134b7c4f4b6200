/**
 * An example add-on written with the Marquee SDK: a movie catalog with genres, search and
 * paging, and one live-TV channel with a programme guide around the current date.
 * Tests and docs use it; `createExampleAddon({ movies })` lets a test serve a bigger catalog.
 */
import { createAddon, guideDayWindow, overlapsGuideDay, page, programmeId } from '../src/addon/index.js';
import type { Meta, MetaPreview, Stream, Video } from '../src/protocol/index.js';

export interface ExampleMovie {
  readonly id: string;
  readonly name: string;
  readonly year: number;
  readonly genres: readonly string[];
  readonly description: string;
  readonly director: string;
  readonly stream: string;
}

export const GENRES = ['Animation', 'Action & Adventure', 'Comédie', 'Science Fiction', 'Fantasy', 'Drama'] as const;

const BUCKET = 'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample';

/** Freely licensed films (Blender Foundation, CC BY) with their public sample streams. */
export const EXAMPLE_MOVIES: readonly ExampleMovie[] = [
  {
    id: 'mqex:movie:big-buck-bunny',
    name: 'Big Buck Bunny',
    year: 2008,
    genres: ['Animation', 'Comédie'],
    director: 'Sacha Goedegebure',
    description: 'A giant rabbit takes revenge on three bullying rodents.',
    stream: `${BUCKET}/BigBuckBunny.mp4`,
  },
  {
    id: 'mqex:movie:elephants-dream',
    name: 'Elephants Dream',
    year: 2006,
    genres: ['Animation', 'Science Fiction'],
    director: 'Bassam Kurdali',
    description: 'Two men explore a vast, surreal machine.',
    stream: `${BUCKET}/ElephantsDream.mp4`,
  },
  {
    id: 'mqex:movie:sintel',
    name: 'Sintel',
    year: 2010,
    genres: ['Animation', 'Fantasy', 'Action & Adventure'],
    director: 'Colin Levy',
    description: 'A lonely young woman searches for the baby dragon she befriended.',
    stream: `${BUCKET}/Sintel.mp4`,
  },
  {
    id: 'mqex:movie:tears-of-steel',
    name: 'Tears of Steel',
    year: 2012,
    genres: ['Science Fiction', 'Action & Adventure'],
    director: 'Ian Hubert',
    description: 'Warriors and scientists gather in Amsterdam to save the world from robots.',
    stream: `${BUCKET}/TearsOfSteel.mp4`,
  },
  {
    id: 'mqex:movie:for-bigger-blazes',
    name: 'Été des Flammes',
    year: 2013,
    genres: ['Drama'],
    director: 'Blaze Team',
    description: 'A short about a hot summer and a bigger screen.',
    stream: `${BUCKET}/ForBiggerBlazes.mp4`,
  },
  {
    id: 'mqex:movie:for-bigger-escapes',
    name: 'Grande Évasion',
    year: 2013,
    genres: ['Comédie', 'Action & Adventure'],
    director: 'Escape Team',
    description: 'An escape, told on a bigger screen.',
    stream: `${BUCKET}/ForBiggerEscapes.mp4`,
  },
];

/** A poster as an SVG data URI: the example needs no image host and works offline. */
export function posterFor(name: string, shape: 'poster' | 'square' = 'poster'): string {
  let hue = 0;
  for (const ch of name) hue = (hue * 31 + ch.codePointAt(0)!) % 360;
  const [w, h] = shape === 'poster' ? [300, 450] : [300, 300];
  const text = name.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="hsl(${hue},55%,35%)"/><text x="50%" y="50%" fill="#fff" font-family="sans-serif" font-size="26" text-anchor="middle">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const CHANNEL_ID = 'mqex:tv:classics';
const CHANNEL_NAME = 'Marquee Classics';
const SLOT_MS = 90 * 60_000;

function preview(movie: ExampleMovie): MetaPreview {
  return {
    id: movie.id,
    type: 'movie',
    name: movie.name,
    poster: posterFor(movie.name),
    genres: [...movie.genres],
    releaseInfo: String(movie.year),
  };
}

function meta(movie: ExampleMovie): Meta {
  return {
    ...preview(movie),
    description: movie.description,
    director: [movie.director],
    released: `${movie.year}-01-01T00:00:00.000Z`,
    runtime: '10 min',
  };
}

/** The channel's programmes: back-to-back 90-minute slots aligned to the epoch, cycling through the movies. */
function programmes(movies: readonly ExampleMovie[], from: number, to: number): Video[] {
  const videos: Video[] = [];
  for (let start = Math.floor(from / SLOT_MS) * SLOT_MS; start < to; start += SLOT_MS) {
    const movie = movies[Math.floor(start / SLOT_MS) % movies.length]!;
    const startTime = new Date(start).toISOString();
    videos.push({
      id: programmeId(CHANNEL_ID, start),
      title: movie.name,
      released: startTime,
      startTime,
      endTime: new Date(start + SLOT_MS).toISOString(),
      overview: movie.description,
      runtime: '90 min',
      releaseInfo: String(movie.year),
      genres: [...movie.genres],
    });
  }
  return videos;
}

function channel(movies: readonly ExampleMovie[], videos: Video[]): Meta {
  return {
    id: CHANNEL_ID,
    type: 'tv',
    name: CHANNEL_NAME,
    poster: posterFor(CHANNEL_NAME, 'square'),
    posterShape: 'square',
    description: `Films around the clock: ${movies.length} titles in rotation.`,
    behaviorHints: { isLive: true, hasScheduledVideos: true },
    videos,
  };
}

const GUIDE_CACHE = { cacheMaxAge: 300, staleRevalidate: 1800, staleError: 604800 } as const;

export function createExampleAddon(options: { movies?: readonly ExampleMovie[]; now?: () => number } = {}) {
  const movies = options.movies ?? EXAMPLE_MOVIES;
  const now = options.now ?? Date.now;
  const byId = new Map(movies.map((m) => [m.id, m]));
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

  return createAddon({
    manifest: {
      id: 'org.marquee.example',
      version: '1.0.0',
      name: 'Marquee Example',
      description: 'Freely licensed films and a live channel with a programme guide, served by the Marquee SDK.',
      resources: ['catalog', 'meta', 'stream'],
      types: ['movie', 'tv'],
      idPrefixes: ['mqex:'],
      catalogs: [
        {
          type: 'movie',
          id: 'mqex-movies',
          name: 'Example Movies',
          genres: [...GENRES],
          extra: [{ name: 'genre', options: [...GENRES] }, { name: 'search' }, { name: 'skip' }],
        },
        { type: 'tv', id: 'mqex-channels', name: 'Example Channels', extra: [{ name: 'date' }, { name: 'skip' }] },
      ],
      behaviorHints: { epgProvider: true },
    },
    handlers: {
      catalog({ id, extra }) {
        if (id === 'mqex-channels') {
          if (extra.date === undefined) {
            return {
              metas: page(
                [
                  {
                    id: CHANNEL_ID,
                    type: 'tv',
                    name: CHANNEL_NAME,
                    poster: posterFor(CHANNEL_NAME, 'square'),
                    posterShape: 'square' as const,
                    behaviorHints: { isLive: true },
                  },
                ],
                extra.skip,
              ),
            };
          }
          const day = guideDayWindow(extra.date);
          const videos = programmes(movies, day.start, day.end).filter((v) =>
            overlapsGuideDay(Date.parse(v.startTime!), Date.parse(v.endTime!), extra.date!),
          );
          return { metasDetailed: page([channel(movies, videos)], extra.skip), ...GUIDE_CACHE };
        }
        let list = movies;
        if (extra.genre !== undefined) list = list.filter((m) => m.genres.includes(extra.genre!));
        if (extra.search !== undefined) {
          const words = fold(extra.search).split(/\s+/).filter(Boolean);
          list = list.filter((m) => words.every((w) => fold(`${m.name} ${m.director}`).includes(w)));
        }
        return { metas: page(list, extra.skip).map(preview) };
      },
      meta({ type, id }) {
        if (type === 'tv' && id === CHANNEL_ID) {
          const t = now();
          return { meta: channel(movies, programmes(movies, t - 6 * 3_600_000, t + 24 * 3_600_000)), ...GUIDE_CACHE };
        }
        const movie = type === 'movie' ? byId.get(id) : undefined;
        return movie ? { meta: meta(movie) } : null;
      },
      stream({ type, id }) {
        const streams: Stream[] = [];
        if (type === 'tv' && id === CHANNEL_ID)
          streams.push({ name: 'Marquee', description: CHANNEL_NAME, url: `${BUCKET}/BigBuckBunny.mp4` });
        const movie = type === 'movie' ? byId.get(id) : undefined;
        if (movie)
          streams.push({ name: 'Marquee', description: `${movie.name} (${movie.year}) · MP4`, url: movie.stream });
        return { streams };
      },
    },
  });
}
