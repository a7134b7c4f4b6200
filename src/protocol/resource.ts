import * as v from 'valibot';

/** Resource names the client uses. Others are allowed but never requested. */
export const RESOURCE_NAMES = ['catalog', 'meta', 'stream', 'subtitles', 'addon_catalog'] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/** Resource object: `{ name, types, idPrefixes? }`; its own types and prefixes apply to it only. */
export const ResourceObjectSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  types: v.optional(v.array(v.string())),
  idPrefixes: v.optional(v.array(v.string())),
});

/** A resource entry is a name (manifest-level types and idPrefixes apply) or an object. */
export const ResourceSchema = v.union(
  [v.pipe(v.string(), v.minLength(1, 'must not be empty')), ResourceObjectSchema],
  'must be a resource name (string) or an object { name, types, idPrefixes? }',
);

export type ResourceObject = v.InferOutput<typeof ResourceObjectSchema>;
export type Resource = v.InferOutput<typeof ResourceSchema>;
