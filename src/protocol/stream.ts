import * as v from 'valibot';
import { UrlSchema } from './common.js';

/** Subtitles object: `{ id, url, lang }`, lang an ISO 639-2 code. */
export const SubtitleSchema = v.looseObject({
  id: v.string(),
  url: UrlSchema,
  lang: v.string(),
});

export type Subtitle = v.InferOutput<typeof SubtitleSchema>;

const HeadersSchema = v.record(v.string(), v.string());

export const StreamBehaviorHintsSchema = v.looseObject({
  notWebReady: v.optional(v.boolean()),
  bingeGroup: v.optional(v.string()),
  countryWhitelist: v.optional(
    v.array(v.pipe(v.string(), v.regex(/^[a-z]{3}$/, 'must be a lowercase ISO 3166-1 alpha-3 code'))),
  ),
  proxyHeaders: v.optional(v.looseObject({ request: v.optional(HeadersSchema), response: v.optional(HeadersSchema) })),
  videoHash: v.optional(v.string()),
  videoSize: v.optional(v.number()),
  filename: v.optional(v.string()),
});

/**
 * Stream object: exactly one source out of url, ytId, infoHash (+ fileIdx), externalUrl.
 * proxyHeaders need notWebReady: true (the client ignores them otherwise).
 */
export const StreamSchema = v.pipe(
  v.looseObject({
    url: v.optional(UrlSchema),
    ytId: v.optional(v.pipe(v.string(), v.minLength(1))),
    infoHash: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{40}$/, 'must be a 40-digit hex info hash'))),
    fileIdx: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    externalUrl: v.optional(UrlSchema),
    name: v.optional(v.string()),
    title: v.optional(v.string()),
    description: v.optional(v.string()),
    subtitles: v.optional(v.array(SubtitleSchema)),
    sources: v.optional(v.array(v.string())),
    behaviorHints: v.optional(StreamBehaviorHintsSchema),
  }),
  v.check((s) => {
    const count = [s.url, s.ytId, s.infoHash, s.externalUrl].filter((x) => x !== undefined).length;
    return count === 1;
  }, 'a stream needs exactly one source: url, ytId, infoHash or externalUrl'),
  v.check(
    (s) => !s.behaviorHints?.proxyHeaders || s.behaviorHints.notWebReady === true,
    'behaviorHints.proxyHeaders needs behaviorHints.notWebReady: true',
  ),
);

export type Stream = v.InferOutput<typeof StreamSchema>;
