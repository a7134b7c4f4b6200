// Marquee's main entry: the SDK and the HTTP server. Backends, store, checker and export have
// their own entries (`stremio-marquee/livetv`, `stremio-marquee/library`, `stremio-marquee/store`, `stremio-marquee/checker`, `stremio-marquee/export`).
export {
  type Addon,
  type AddonOptions,
  type AddonPart,
  type AsyncConfigCodec,
  type CatalogRequest,
  type ConfigCodec,
  composeAddon,
  createAddon,
  guideDayWindow,
  type Handlers,
  type ItemRequest,
  jsonConfigCodec,
  overlapsGuideDay,
  page,
  programmeId,
} from './addon/index.js';
export { ERROR_CODES, type ErrorCode, type Issue, isMarqueeError, MarqueeError } from './errors.js';
export type { Manifest, Meta, MetaPreview, Stream, Subtitle, Video } from './protocol/index.js';
export { validateManifest, validateResponse } from './protocol/index.js';
export {
  createRequestHandler,
  createTokenCodec,
  createWebTokenCodec,
  generateKeyRing,
  listen,
  type RunningServer,
  type ServerOptions,
  toFetchHandler,
} from './server/index.js';
