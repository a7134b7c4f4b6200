export { cacheControl, DEFAULT_CACHE } from './cache-control.js';
export {
  createTokenCodec,
  generateKeyRing,
  type KeyRing,
  parseKeyRing,
  rotateKeyRing,
  serializeKeyRing,
} from './config-token.js';
export { createRequestHandler, redactPath } from './core.js';
export { STATUS_BY_CODE } from './errors.js';
export { toFetchHandler } from './fetch.js';
export { escapeHtml, html } from './html.js';
export {
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  type ListenOptions,
  listen,
  type RunningServer,
  toNodeListener,
} from './node.js';
export type { AddonSource, CoreRequest, CoreResponse, Logger, RequestHandler, ServerOptions } from './types.js';
