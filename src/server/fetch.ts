import type { CoreRequest, RequestHandler } from './types.js';

/**
 * Adapt the core handler to the Fetch API (`(Request) => Response`) for serverless and edge runtimes.
 *
 * @example export default { fetch: toFetchHandler(createRequestHandler(addon)) };
 */
export function toFetchHandler(handler: RequestHandler): (request: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url);
    const request: CoreRequest = {
      method: req.method,
      url: url.pathname + url.search,
      header: (name) => req.headers.get(name) ?? undefined,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
      readBody: async (maxBytes) => {
        const body = new Uint8Array(await req.arrayBuffer());
        if (body.byteLength > maxBytes) throw new Error(`request body over ${maxBytes} bytes`);
        return body;
      },
      signal: req.signal,
    };
    const response = await handler(request);
    const noBody = req.method === 'HEAD' || response.status === 204 || response.status === 304;
    return new Response(noBody ? null : response.body, { status: response.status, headers: response.headers });
  };
}
