/**
 * A stream the relay passes through as it is (an MP4 file): each request is one upstream request
 * with the client's Range, answered with the upstream's status, length and range, the stream's
 * headers sent upstream. It holds a connection slot while it lasts, like a session. No upstream
 * address reaches the client: only the bytes and their type.
 */
import type { CoreRequest, CoreResponse } from '../server/index.js';
import { openUpstream, type UpstreamPolicy } from './fetch.js';
import type { RelayTarget } from './types.js';

const RANGE = /^bytes=\d*-\d*$/;

export async function passThrough(
  request: CoreRequest,
  target: RelayTarget,
  policy: UpstreamPolicy,
  stallMs: number,
  hold: () => Promise<() => void>,
  cors: Readonly<Record<string, string>>,
): Promise<CoreResponse> {
  const stream = target.streams[0]!;
  const release = await hold();
  const range = request.header('range');
  try {
    const upstream = {
      ...stream.request,
      headers: { ...stream.request.headers, ...(range !== undefined && RANGE.test(range) ? { range } : {}) },
    };
    const source = await openUpstream(policy, upstream, upstream.url, stallMs);
    const m = source.metadata;
    const headers: Record<string, string> = {
      ...cors,
      'content-type': m.contentType ?? 'video/mp4',
      'accept-ranges': 'bytes',
      'cache-control': 'no-store',
      ...(m.byteLength !== undefined ? { 'content-length': String(m.byteLength) } : {}),
      ...(m.contentRange !== undefined ? { 'content-range': m.contentRange } : {}),
    };
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      source.close();
      release();
    };
    if (request.method === 'HEAD') {
      done();
      return { status: source.status, headers, body: '' };
    }
    return {
      status: source.status === 206 ? 206 : 200,
      headers,
      body: '',
      // An iterator of its own: its slot is given back when the client goes, even before a first chunk.
      stream: {
        [Symbol.asyncIterator]() {
          const chunks = source.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
          return {
            async next() {
              try {
                const next = await chunks.next();
                if (next.done) done();
                return next;
              } catch (error) {
                done();
                throw error;
              }
            },
            async return() {
              done();
              return { done: true as const, value: undefined };
            },
          };
        },
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
