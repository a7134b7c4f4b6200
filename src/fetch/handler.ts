import { createCoreHandler } from '../server/core.js';
import type { AddonSource, RequestHandler, ServerOptions } from '../server/types.js';
import { webPlatform } from '../server/web-platform.js';

/**
 * The request core with Web APIs only (Workers, Bun, Deno, and Node too): the same manifest,
 * resources, pages, cache headers and response cache as `stremio-marquee/server`'s. Answers are
 * gzip-compressed with `CompressionStream` and kept compressed in the response cache, except where
 * the runtime compresses what it sends (Cloudflare's edge, for Workers): there they go out as
 * they are. There are no compression threads: a runtime without threads does without them.
 *
 * @example export default { fetch: toFetchHandler(createRequestHandler(addon)) };
 */
export function createRequestHandler(source: AddonSource, options: ServerOptions = {}): RequestHandler {
  return createCoreHandler(source, options, webPlatform());
}
