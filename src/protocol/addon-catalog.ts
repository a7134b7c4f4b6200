import * as v from 'valibot';

/** Addon Catalog object of the manifest: a list of other add-ons. */
export const AddonCatalogSchema = v.looseObject({
  type: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  name: v.string(),
});

export type AddonCatalog = v.InferOutput<typeof AddonCatalogSchema>;
