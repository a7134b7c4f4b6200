// The public surface of protocol/: schemas and their inferred types, validators, the request path
// codec, routing rules and protocol constants. Rule helpers (report, schema-issues, *-rules) stay internal.

export { type AddonCatalog, AddonCatalogSchema } from './addon-catalog.js';
export { type AddonEntry, AddonEntrySchema } from './addon-entry.js';
export { type Catalog, CatalogSchema } from './catalog.js';
export { DateTimeSchema, isAbsoluteUrl, isIsoDay, isRfc3339, SEMVER, StringListSchema, UrlSchema } from './common.js';
export { CONFIG_FIELD_TYPES, type ConfigField, ConfigFieldSchema, type ConfigFieldType } from './config-field.js';
export { type Extra, ExtraSchema, KNOWN_EXTRAS } from './extra.js';
export { firstGuideDay, GUIDE_DAY_MS, guideDayWindow, overlapsGuideDay } from './guide-day.js';
export { type Link, LinkSchema } from './link.js';
export { type Manifest, ManifestBehaviorHintsSchema, type ManifestInput, ManifestSchema } from './manifest.js';
export {
  type Meta,
  MetaBehaviorHintsSchema,
  type MetaPreview,
  MetaPreviewSchema,
  MetaSchema,
  POSTER_SHAPES,
} from './meta.js';
export {
  type ExtraPairs,
  formatAddonPath,
  formatExtra,
  formatManifestPath,
  PATH_LIMITS,
  type ParsedPath,
  parseAddonPath,
  parseExtra,
  type ResourcePath,
} from './path.js';
export type { Report, ResponseIssue } from './report.js';
export {
  RESOURCE_NAMES,
  type Resource,
  type ResourceName,
  type ResourceObject,
  ResourceObjectSchema,
  ResourceSchema,
} from './resource.js';
export {
  type AddonsResponse,
  AddonsResponseSchema,
  type CacheHints,
  CacheHintsSchema,
  MAX_PAGE_SIZE,
  type MetaResponse,
  MetaResponseSchema,
  type MetasDetailedResponse,
  MetasDetailedResponseSchema,
  type MetasResponse,
  MetasResponseSchema,
  RESPONSE_KEY,
  type StreamsResponse,
  StreamsResponseSchema,
  type SubtitlesResponse,
  SubtitlesResponseSchema,
  WRAPPER_KEYS,
  type WrapperKey,
} from './responses.js';
export {
  type CatalogExtras,
  extraDeclared,
  findCatalog,
  isGuideCatalog,
  type RoutingManifest,
  requiredExtras,
  resourceRoutes,
} from './routing.js';
export { jsonPath, schemaIssues } from './schema-issues.js';
export { type Stream, StreamBehaviorHintsSchema, StreamSchema, type Subtitle, SubtitleSchema } from './stream.js';
export {
  MAX_MANIFEST_BYTES,
  type ManifestReport,
  type ValidateManifestOptions,
  validateManifest,
} from './validate-manifest.js';
export {
  expectedWrapperKey,
  type ResponseRequest,
  type ValidateResponseOptions,
  validateResponse,
} from './validate-response.js';
export { RatingSchema, type Video, VideoSchema } from './video.js';
