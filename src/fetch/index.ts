// stremio-marquee/fetch: what every runtime runs (Cloudflare Workers, Bun, Deno, Node): the SDK,
// the protocol, the request core and the Fetch adapter, with Web APIs only (docs/runtimes.md).
// Nothing here imports a `node:` module; a test bundles it for the browser platform and fails on
// any Node built-in. Node's sockets, TLS and compression threads are in `stremio-marquee/server`.
export {
  type AnyConfigCodec,
  type AsyncConfigCodec,
  type ConfigCodec,
  type ConfigProblem,
  coerceConfig,
  jsonConfigCodec,
  readConfig,
} from '../addon/config.js';
export { type Addon, type AddonOptions, type AnyAddon, createAddon } from '../addon/create-addon.js';
export { readCatalogExtra } from '../addon/extra.js';
export { guideDayWindow, overlapsGuideDay, page, programmeId } from '../addon/paging.js';
export { isRawJsonList, parseRawJson, parseRawJsonList, type RawJsonList, rawJsonList } from '../addon/raw-list.js';
export type * from '../addon/types.js';
export { ERROR_CODES, type ErrorCode, type Issue, isMarqueeError, MarqueeError } from '../errors.js';
export type { Manifest, Meta, MetaPreview, Stream, Subtitle, Video } from '../protocol/index.js';
export { validateManifest } from '../protocol/validate-manifest.js';
export { validateResponse } from '../protocol/validate-response.js';
export { cacheControl, DEFAULT_CACHE } from '../server/cache-control.js';
export { STATUS_BY_CODE } from '../server/errors.js';
export { toFetchHandler } from '../server/fetch.js';
export {
  generateKeyRing,
  type KeyRing,
  parseKeyRing,
  rotateKeyRing,
  serializeKeyRing,
} from '../server/key-ring.js';
export type { AddonSource, CoreRequest, CoreResponse, Logger, RequestHandler, ServerOptions } from '../server/types.js';
export { createWebTokenCodec } from '../server/web-token.js';
export { createRequestHandler } from './handler.js';
