/**
 * A Stremio add-on for Cloudflare Workers, Bun and Deno, written with `stremio-marquee/fetch` (Web
 * APIs only): two catalogs (films with genres and paging, a series), meta with episodes, streams,
 * and an optional configuration (a preferred quality, and an access token that travels encrypted
 * in the install link). `export default { fetch }` is what Workers, `bun run` and `deno serve` take.
 *
 * The encryption key ring comes from MARQUEE_KEYS: a Worker's secret, or an environment variable
 * under Bun and Deno (README.md beside this file).
 */
import {
  createAddon,
  createRequestHandler,
  createWebTokenCodec,
  type MetaPreview,
  page,
  parseKeyRing,
  type Stream,
  toFetchHandler,
} from 'stremio-marquee/fetch';

const ID = 'org.example.worker-films';
const SAMPLES = 'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample';
const GENRES = ['Animation', 'Comedy', 'Fantasy', 'Science Fiction'] as const;

interface Film {
  readonly id: string;
  readonly name: string;
  readonly year: number;
  readonly genres: readonly (typeof GENRES)[number][];
  readonly description: string;
  /** The file's name among the samples, for its poster and stream. */
  readonly file: string;
}

/** Freely licensed films (Blender Foundation, CC BY) with public sample streams. */
const FILMS: readonly Film[] = [
  {
    id: 'wf:big-buck-bunny',
    name: 'Big Buck Bunny',
    year: 2008,
    genres: ['Animation', 'Comedy'],
    description: 'A giant rabbit takes revenge on three bullying rodents.',
    file: 'BigBuckBunny',
  },
  {
    id: 'wf:elephants-dream',
    name: 'Elephants Dream',
    year: 2006,
    genres: ['Animation', 'Science Fiction'],
    description: 'Two men explore a vast, surreal machine.',
    file: 'ElephantsDream',
  },
  {
    id: 'wf:sintel',
    name: 'Sintel',
    year: 2010,
    genres: ['Animation', 'Fantasy'],
    description: 'A lonely young woman searches for the baby dragon she befriended.',
    file: 'Sintel',
  },
  {
    id: 'wf:tears-of-steel',
    name: 'Tears of Steel',
    year: 2012,
    genres: ['Science Fiction'],
    description: 'Warriors and scientists gather in Amsterdam to save the world from robots.',
    file: 'TearsOfSteel',
  },
];

/** A series of short sample clips, one season. */
const SHORTS = {
  id: 'wf:shorts',
  name: 'Bigger Screens',
  description: 'Short clips made to show off a bigger screen.',
  episodes: ['ForBiggerBlazes', 'ForBiggerEscapes', 'ForBiggerFun', 'ForBiggerJoyrides', 'ForBiggerMeltdowns'],
} as const;

const poster = (file: string) => `${SAMPLES}/images/${file}.jpg`;
const preview = (film: Film): MetaPreview => ({
  id: film.id,
  type: 'movie',
  name: film.name,
  poster: poster(film.file),
  genres: [...film.genres],
  releaseInfo: String(film.year),
  description: film.description,
});

/** The streams of a sample file: with a token, the same file through the user's own server too. */
function streamsOf(file: string, title: string, config: { quality: string; token?: string }): Stream[] {
  const streams: Stream[] = [];
  if (config.quality !== '720p')
    streams.push({ name: 'Samples', title: `${title}\n1080p`, url: `${SAMPLES}/${file}.mp4` });
  if (config.quality !== '1080p')
    streams.push({ name: 'Samples', title: `${title}\n720p`, url: `${SAMPLES}/${file}.mp4` });
  if (config.token) {
    const url = `https://media.example.org/${file}.mp4?token=${encodeURIComponent(config.token)}`;
    streams.push({ name: 'My server', title, url });
  }
  return streams;
}

/** The add-on; `keys` is the key ring's JSON (the text of a `marquee rotate-key` key file). */
export function filmsAddon(keys: string) {
  return createAddon({
    manifest: {
      id: ID,
      version: '1.0.0',
      name: 'Films on a Worker',
      description: 'Open films and a series, served from Cloudflare Workers, Bun or Deno.',
      resources: ['catalog', 'meta', 'stream'],
      types: ['movie', 'series'],
      idPrefixes: ['wf:'],
      catalogs: [
        {
          type: 'movie',
          id: 'wf-films',
          name: 'Open Films',
          extra: [{ name: 'genre', options: [...GENRES] }, { name: 'skip' }],
        },
        { type: 'series', id: 'wf-series', name: 'Open Series' },
      ],
      behaviorHints: { configurable: true },
      config: [
        {
          key: 'quality',
          type: 'select',
          title: 'Preferred quality',
          options: ['any', '1080p', '720p'],
          default: 'any',
        },
        { key: 'token', type: 'password', title: 'Access token of your media server (kept encrypted in your link)' },
      ],
    },
    configCodec: createWebTokenCodec(parseKeyRing(keys), ID),
    handlers: {
      catalog({ type, extra }) {
        if (type === 'series') {
          return { metas: [{ id: SHORTS.id, type: 'series', name: SHORTS.name, poster: poster(SHORTS.episodes[0]) }] };
        }
        const films = FILMS.filter((f) => extra.genre === undefined || f.genres.some((g) => g === extra.genre));
        return { metas: page(films.map(preview), extra.skip), cacheMaxAge: 3600 };
      },
      meta({ type, id }) {
        if (type === 'series' && id === SHORTS.id) {
          const videos = SHORTS.episodes.map((file, i) => ({
            id: `${SHORTS.id}:1:${i + 1}`,
            title: file.replace(/([a-z])([A-Z])/g, '$1 $2'),
            season: 1,
            episode: i + 1,
            released: new Date(Date.UTC(2013, 0, 7 * (i + 1))).toISOString(),
            thumbnail: poster(file),
          }));
          return {
            meta: {
              id,
              type,
              name: SHORTS.name,
              description: SHORTS.description,
              poster: poster(SHORTS.episodes[0]),
              videos,
            },
          };
        }
        const film = FILMS.find((f) => f.id === id);
        return { meta: film ? preview(film) : null };
      },
      stream({ type, id, config }) {
        if (type === 'series') {
          const [, , , episode] = id.split(':');
          const file = SHORTS.episodes[Number(episode) - 1];
          return { streams: file ? streamsOf(file, `${SHORTS.name} ${episode}`, config) : [] };
        }
        const film = FILMS.find((f) => f.id === id);
        return { streams: film ? streamsOf(film.file, film.name, config) : [] };
      },
    },
  });
}

/** MARQUEE_KEYS: a Worker's binding (a secret), else the environment (Bun, Deno). */
function keysFrom(env: unknown): string | undefined {
  const binding = (env as { MARQUEE_KEYS?: unknown } | undefined)?.MARQUEE_KEYS;
  if (typeof binding === 'string') return binding;
  const scope = globalThis as {
    Deno?: { env: { get(name: string): string | undefined } };
    process?: { env: Record<string, string | undefined> };
  };
  return scope.Deno ? scope.Deno.env.get('MARQUEE_KEYS') : scope.process?.env.MARQUEE_KEYS;
}

const NO_KEYS =
  'MARQUEE_KEYS is not set: it holds the key ring that encrypts configurations in install links. ' +
  "Make one with `npx marquee rotate-key` and give the file's text as a secret (README.md).\n";

let serve: ((request: Request) => Promise<Response>) | undefined;

export default {
  /** Workers pass their bindings as `env`; Bun and Deno pass other things there, and have the environment. */
  fetch(request: Request, env?: unknown): Promise<Response> {
    if (serve === undefined) {
      const keys = keysFrom(env);
      if (keys === undefined) {
        console.error(NO_KEYS);
        return Promise.resolve(new Response(NO_KEYS, { status: 500, headers: { 'content-type': 'text/plain' } }));
      }
      // An isolate has 128 MB: a smaller response cache than the default 64 MiB.
      serve = toFetchHandler(createRequestHandler(filmsAddon(keys), { responseCache: { maxBytes: 16 * 1024 * 1024 } }));
    }
    return serve(request);
  },
};
