import * as v from 'valibot';
import { AddonEntrySchema } from './addon-entry.js';
import { MetaPreviewSchema, MetaSchema } from './meta.js';
import { StreamSchema, SubtitleSchema } from './stream.js';

/** The six wrapper keys the client reads; a body carries exactly one. */
export const WRAPPER_KEYS = ['metas', 'metasDetailed', 'meta', 'streams', 'subtitles', 'addons'] as const;
export type WrapperKey = (typeof WRAPPER_KEYS)[number];

/** Most items one catalog page may hold. */
export const MAX_PAGE_SIZE = 100;

/** Cache hints a handler may return; the server turns them into Cache-Control. */
export const CacheHintsSchema = v.object({
  cacheMaxAge: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  staleRevalidate: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  staleError: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export type CacheHints = v.InferOutput<typeof CacheHintsSchema>;

export const MetasResponseSchema = v.object({ metas: v.array(MetaPreviewSchema) });
export const MetasDetailedResponseSchema = v.object({ metasDetailed: v.array(MetaSchema) });
export const MetaResponseSchema = v.object({ meta: MetaSchema });
export const StreamsResponseSchema = v.object({ streams: v.array(StreamSchema) });
export const SubtitlesResponseSchema = v.object({ subtitles: v.array(SubtitleSchema) });
export const AddonsResponseSchema = v.object({ addons: v.array(AddonEntrySchema) });

export type MetasResponse = v.InferOutput<typeof MetasResponseSchema>;
export type MetasDetailedResponse = v.InferOutput<typeof MetasDetailedResponseSchema>;
export type MetaResponse = v.InferOutput<typeof MetaResponseSchema>;
export type StreamsResponse = v.InferOutput<typeof StreamsResponseSchema>;
export type SubtitlesResponse = v.InferOutput<typeof SubtitlesResponseSchema>;
export type AddonsResponse = v.InferOutput<typeof AddonsResponseSchema>;

/** Which wrapper each resource answers with. */
export const RESPONSE_KEY = {
  catalog: 'metas',
  meta: 'meta',
  stream: 'streams',
  subtitles: 'subtitles',
  addon_catalog: 'addons',
} as const;
