import type { BodyStream, CoreRequest, RequestHandler } from './types.js';

/** A body stream as a Web ReadableStream, pulled chunk by chunk as the runtime reads it. */
function readableOf(body: BodyStream): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

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
    const body = noBody ? null : response.stream !== undefined ? readableOf(response.stream) : response.body;
    return new Response(body, { status: response.status, headers: response.headers });
  };
}
