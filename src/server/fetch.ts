import { MarqueeError } from '../errors.js';
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

/** `request body over N bytes`, as the Node adapter refuses it. */
const tooLarge = (maxBytes: number) => new MarqueeError('BAD_REQUEST', `request body over ${maxBytes} bytes`);

/**
 * The body of `req`, refusing more than `maxBytes`: by its Content-Length at once, else while it
 * streams in (nothing past the limit is held).
 */
async function readBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(req.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (req.body === null) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * Adapt the core handler to the Fetch API (`(Request) => Response`) for Workers, Bun, Deno and
 * other serverless and edge runtimes. A compressed answer is sent as it is (`encodeBody:
 * 'manual'`, which workerd needs to not compress it again; other runtimes ignore it).
 *
 * @example export default { fetch: toFetchHandler(createRequestHandler(addon)) };
 */
export function toFetchHandler(handler: RequestHandler): (request: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url);
    const request: CoreRequest = {
      method: req.method,
      url: url.pathname + url.search,
      // A Request always names its host in its URL, whether or not the runtime keeps a Host header.
      header: (name) => req.headers.get(name) ?? (name === 'host' ? url.host : undefined),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
      readBody: (maxBytes) => readBody(req, maxBytes),
      signal: req.signal,
    };
    const response = await handler(request);
    const noBody = req.method === 'HEAD' || response.status === 204 || response.status === 304;
    const init: NonNullable<ConstructorParameters<typeof Response>[1]> & { encodeBody?: 'manual' } = {
      status: response.status,
      headers: response.headers,
    };
    if (response.headers['content-encoding'] !== undefined) init.encodeBody = 'manual';
    const body = noBody ? null : response.stream !== undefined ? readableOf(response.stream) : response.body;
    return new Response(body as ConstructorParameters<typeof Response>[0], init);
  };
}
