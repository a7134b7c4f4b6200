import * as v from 'valibot';
import { AddonCatalogSchema } from './addon-catalog.js';
import { CatalogSchema } from './catalog.js';
import { UrlSchema } from './common.js';
import { ConfigFieldSchema } from './config-field.js';
import { ResourceSchema } from './resource.js';

export const ManifestBehaviorHintsSchema = v.looseObject({
  configurable: v.optional(v.boolean()),
  configurationRequired: v.optional(v.boolean()),
  epgProvider: v.optional(v.boolean()),
  adult: v.optional(v.boolean()),
  p2p: v.optional(v.boolean()),
});

/** The add-on manifest (`/manifest.json`). Shape only; rules live in validate-manifest.ts. */
export const ManifestSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  description: v.string(),
  version: v.string(),
  resources: v.array(ResourceSchema),
  types: v.array(v.string()),
  idPrefixes: v.optional(v.array(v.string())),
  catalogs: v.array(CatalogSchema),
  addonCatalogs: v.optional(v.array(AddonCatalogSchema)),
  config: v.optional(v.array(ConfigFieldSchema)),
  background: v.optional(UrlSchema),
  logo: v.optional(UrlSchema),
  contactEmail: v.optional(v.string()),
  behaviorHints: v.optional(ManifestBehaviorHintsSchema),
});

export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type ManifestInput = v.InferInput<typeof ManifestSchema>;
