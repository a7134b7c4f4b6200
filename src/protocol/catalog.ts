import * as v from 'valibot';
import { ExtraSchema } from './extra.js';

/** Catalog object of the manifest. */
export const CatalogSchema = v.looseObject({
  type: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  name: v.string(),
  extra: v.optional(v.array(ExtraSchema)),
  genres: v.optional(v.array(v.string())),
});

export type Catalog = v.InferOutput<typeof CatalogSchema>;
