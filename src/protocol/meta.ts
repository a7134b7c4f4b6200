import * as v from 'valibot';
import { DateTimeSchema, UrlSchema } from './common.js';
import { LinkSchema } from './link.js';
import { StreamSchema } from './stream.js';
import { VideoSchema } from './video.js';

export const POSTER_SHAPES = ['square', 'poster', 'landscape'] as const;

export const MetaBehaviorHintsSchema = v.looseObject({
  isLive: v.optional(v.boolean()),
  hasScheduledVideos: v.optional(v.boolean()),
  defaultVideoId: v.optional(v.string()),
  featuredVideoId: v.optional(v.string()),
});

const previewEntries = {
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  type: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  name: v.string(),
  poster: v.optional(UrlSchema),
  posterShape: v.optional(v.picklist(POSTER_SHAPES, 'must be square, poster or landscape')),
  background: v.optional(UrlSchema),
  logo: v.optional(UrlSchema),
  description: v.optional(v.string()),
  releaseInfo: v.optional(v.string()),
  imdbRating: v.optional(v.string()),
  released: v.optional(DateTimeSchema),
  runtime: v.optional(v.string()),
  genres: v.optional(v.array(v.string())),
  links: v.optional(v.array(LinkSchema)),
  trailers: v.optional(v.array(v.looseObject({ source: v.string(), type: v.string() }))),
  behaviorHints: v.optional(MetaBehaviorHintsSchema),
};

/** Meta Preview object: one item of a catalog feed. */
export const MetaPreviewSchema = v.looseObject(previewEntries);

/** Meta object: the details of one item (`{ meta }`), a guide channel included. */
export const MetaSchema = v.looseObject({
  ...previewEntries,
  language: v.optional(v.string()),
  country: v.optional(v.string()),
  awards: v.optional(v.string()),
  website: v.optional(UrlSchema),
  cast: v.optional(v.array(v.string())),
  director: v.optional(v.array(v.string())),
  writer: v.optional(v.array(v.string())),
  videos: v.optional(v.array(VideoSchema)),
  trailerStreams: v.optional(v.array(StreamSchema)),
});

export type MetaPreview = v.InferOutput<typeof MetaPreviewSchema>;
export type Meta = v.InferOutput<typeof MetaSchema>;
