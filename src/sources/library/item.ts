import * as v from 'valibot';
import { MetaSchema } from '../../protocol/meta.js';
import { StreamSchema, SubtitleSchema } from '../../protocol/stream.js';
import { VideoSchema } from '../../protocol/video.js';
import { episodeId, generatedItemId, itemYear } from './id.js';
import { isReleased, RELEASED_MESSAGE, RELEASED_PATTERN, toDateTime } from './released.js';

/**
 * One library item as a library file writes it, and the normalised record the readers hand to
 * the store. Field rules come from the protocol schemas (URLs, streams, links); what the file
 * format adds — ids generated when absent, loose dates, numeric runtime/rating, per-episode
 * streams and subtitles — is normalised by the transform at the end, so `LibraryItem` always
 * carries ids, full RFC 3339 dates and arrays.
 */

export const LIBRARY_TYPES = ['movie', 'series'] as const;

const meta = MetaSchema.entries;

const NotBlank = v.pipe(v.string(), v.regex(/\S/, 'must not be blank'));

/** Ids travel in request paths and the static export's file names: no spaces, no `/`. */
export const LibraryIdSchema = v.pipe(
  v.string(),
  v.regex(/^[^\s/]{1,200}$/, 'must be 1 to 200 characters, without spaces or "/"'),
);

const ReleasedSchema = v.pipe(
  v.union(
    [
      v.pipe(v.string(), v.regex(RELEASED_PATTERN, RELEASED_MESSAGE)),
      v.pipe(v.number(), v.integer(RELEASED_MESSAGE), v.minValue(1000, RELEASED_MESSAGE), v.maxValue(9999)),
    ],
    RELEASED_MESSAGE,
  ),
  v.check(isReleased, RELEASED_MESSAGE),
  v.transform(toDateTime),
);

const NameListSchema = v.array(NotBlank);

const EpisodeNumberSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A subtitle track: the protocol's `{ id, url, lang }`, the id generated (`{lang}-{n}`) when absent. */
export const LibrarySubtitleSchema = v.object({
  id: v.optional(NotBlank),
  url: SubtitleSchema.entries.url,
  lang: NotBlank,
});

/** One episode of a series. season 0 holds specials. */
export const LibraryVideoSchema = v.object({
  id: v.optional(LibraryIdSchema),
  season: EpisodeNumberSchema,
  episode: EpisodeNumberSchema,
  title: v.optional(v.string()),
  released: v.optional(ReleasedSchema),
  overview: VideoSchema.entries.overview,
  thumbnail: VideoSchema.entries.thumbnail,
  streams: v.optional(v.array(StreamSchema)),
  subtitles: v.optional(v.array(LibrarySubtitleSchema)),
});

const itemEntries = {
  /** Editors put `$schema` in files to get completion; it is accepted and dropped. */
  $schema: v.optional(v.string()),
  id: v.optional(LibraryIdSchema),
  type: v.picklist(LIBRARY_TYPES, 'must be "movie" or "series"'),
  name: NotBlank,
  poster: meta.poster,
  background: meta.background,
  logo: meta.logo,
  description: meta.description,
  releaseInfo: meta.releaseInfo,
  released: v.optional(ReleasedSchema),
  /** A number is minutes: `90` → `"90 min"`. */
  runtime: v.optional(
    v.pipe(
      v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))]),
      v.transform((r) => (typeof r === 'number' ? `${r} min` : r)),
    ),
  ),
  genres: v.optional(NameListSchema),
  cast: v.optional(NameListSchema),
  director: v.optional(NameListSchema),
  links: meta.links,
  /** A number is shown with one decimal: `7.5`, `8` → `"8.0"`. */
  imdbRating: v.optional(
    v.pipe(
      v.union([v.string(), v.pipe(v.number(), v.minValue(0), v.maxValue(10))]),
      v.transform((r) => (typeof r === 'number' ? r.toFixed(1) : r)),
    ),
  ),
  language: meta.language,
  country: meta.country,
  adult: v.optional(v.boolean()),
  streams: v.optional(v.array(StreamSchema)),
  subtitles: v.optional(v.array(LibrarySubtitleSchema)),
  videos: v.optional(v.array(LibraryVideoSchema)),
};

/** The item object before the series/movie rules and normalisation (the JSON Schema's shape). */
export const LibraryItemObjectSchema = v.object(itemEntries);

/** Field names an item may carry; readers warn about any other. */
export const LIBRARY_ITEM_FIELDS: ReadonlySet<string> = new Set(Object.keys(itemEntries));
/** Field names an episode may carry. */
export const LIBRARY_VIDEO_FIELDS: ReadonlySet<string> = new Set(Object.keys(LibraryVideoSchema.entries));

type ItemInput = v.InferOutput<typeof LibraryItemObjectSchema>;
type SubtitleInput = v.InferOutput<typeof LibrarySubtitleSchema>;

function withSubtitleIds(subtitles: SubtitleInput[] | undefined) {
  const perLang = new Map<string, number>();
  return (subtitles ?? []).map((s) => {
    const n = (perLang.get(s.lang) ?? 0) + 1;
    perLang.set(s.lang, n);
    return { ...s, id: s.id ?? `${s.lang}-${n}` };
  });
}

function normalise({ $schema: _ignored, ...item }: ItemInput) {
  const year = itemYear(item.released, item.releaseInfo);
  const id = item.id ?? generatedItemId(item.type, item.name, year);
  return {
    ...item,
    id,
    releaseInfo: item.releaseInfo ?? year,
    genres: item.genres ?? [],
    cast: item.cast ?? [],
    director: item.director ?? [],
    adult: item.adult ?? false,
    streams: item.streams ?? [],
    subtitles: withSubtitleIds(item.subtitles),
    videos: (item.videos ?? []).map((video) => ({
      ...video,
      id: video.id ?? episodeId(id, video.season, video.episode),
      title: video.title ?? `Episode ${video.episode}`,
      streams: video.streams ?? [],
      subtitles: withSubtitleIds(video.subtitles),
    })),
  };
}

/**
 * A library item, validated and normalised.
 *
 * @example v.parse(LibraryItemSchema, { type: 'movie', name: 'Sintel', released: 2010 }).id // 'mq:movie-sintel-2010'
 */
export const LibraryItemSchema = v.pipe(
  LibraryItemObjectSchema,
  v.forward(
    v.check((item) => item.type === 'series' || item.videos === undefined, 'only a series has videos'),
    ['videos'],
  ),
  // The client asks for streams and subtitles by episode id, never by the series id.
  v.forward(
    v.check(
      (item) => item.type === 'movie' || item.streams === undefined,
      'a series has no streams of its own: put them on its videos',
    ),
    ['streams'],
  ),
  v.forward(
    v.check(
      (item) => item.type === 'movie' || item.subtitles === undefined,
      'a series has no subtitles of its own: put them on its videos',
    ),
    ['subtitles'],
  ),
  v.transform(normalise),
);

/** The normalised record the store takes. */
export type LibraryItem = v.InferOutput<typeof LibraryItemSchema>;
/** One normalised episode of a series item. */
export type LibraryVideo = LibraryItem['videos'][number];
