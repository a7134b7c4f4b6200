import { createCoreHandler } from './core.js';
import { NODE_PLATFORM } from './node-platform.js';
import type { AddonSource, RequestHandler, ServerOptions } from './types.js';

/**
 * The request core on Node: answers as Buffers, brotli and gzip compressed in threads of their
 * own, SHA-1 ETags. For Workers, Bun and Deno, `stremio-marquee/fetch` has the same function
 * with Web APIs only.
 *
 * @example const handle = createRequestHandler(addon); const res = await handle({ method: 'GET', url: '/manifest.json', header: () => undefined });
 */
export function createRequestHandler(source: AddonSource, options: ServerOptions = {}): RequestHandler {
  return createCoreHandler(source, options, NODE_PLATFORM);
}
