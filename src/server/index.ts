export { cacheControl, DEFAULT_CACHE } from './cache-control.js';
export {
  createTokenCodec,
  generateKeyRing,
  type KeyRing,
  parseKeyRing,
  rotateKeyRing,
  serializeKeyRing,
} from './config-token.js';
export { type ConfigurePageInput, configurePage, fieldName } from './configure.js';
export { STATUS_BY_CODE } from './errors.js';
export { toFetchHandler } from './fetch.js';
export { HTTPS_GUIDE_PATH } from './guide-page.js';
export { escapeHtml, html, SafeHtml } from './html.js';
export { HTTPS_GUIDE_URL, installReach, isLoopbackHost, stremioLink, stremioWebLink } from './install.js';
export {
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  type ListenOptions,
  listen,
  type RunningServer,
  toNodeListener,
} from './node.js';
export { createRequestHandler } from './node-handler.js';
export {
  readTlsPair,
  type TlsCertificateInfo,
  type TlsOptions,
  type TlsPair,
  type TlsReloadEvent,
} from './node-tls.js';
export { pageHeaders } from './page.js';
export { createRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limit.js';
export { readRegularFile, readRegularFileSync } from './regular-file.js';
export { clientAddress, localPath, redactPath } from './request-path.js';
export { crossSiteOrigin, crossSiteResponse } from './same-site.js';
export type {
  AddonSource,
  BodyStream,
  CoreRequest,
  CoreResponse,
  Logger,
  MountedHandler,
  RequestHandler,
  ServerOptions,
} from './types.js';
export { createWebTokenCodec } from './web-token.js';
