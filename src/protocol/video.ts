import * as v from 'valibot';
import { DateTimeSchema, UrlSchema } from './common.js';
import { LinkSchema } from './link.js';
import { StreamSchema } from './stream.js';

export const RatingSchema = v.looseObject({
  value: v.union([v.string(), v.number()]),
  system: v.optional(v.string()),
  icon: v.optional(UrlSchema),
});

/**
 * Video object: a series episode or a scheduled programme. A programme has both startTime and
 * endTime, endTime strictly later (checked in validate-response.ts, where the id set is known).
 */
export const VideoSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  title: v.string(),
  released: v.optional(DateTimeSchema),
  startTime: v.optional(DateTimeSchema),
  endTime: v.optional(DateTimeSchema),
  season: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  episode: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  overview: v.optional(v.string()),
  thumbnail: v.optional(UrlSchema),
  available: v.optional(v.boolean()),
  runtime: v.optional(v.string()),
  releaseInfo: v.optional(v.string()),
  genres: v.optional(v.array(v.string())),
  cast: v.optional(v.array(v.string())),
  directors: v.optional(v.array(v.string())),
  links: v.optional(v.array(LinkSchema)),
  ratings: v.optional(v.array(RatingSchema)),
  streams: v.optional(v.array(StreamSchema)),
});

export type Video = v.InferOutput<typeof VideoSchema>;
