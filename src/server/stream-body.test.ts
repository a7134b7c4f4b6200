import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { composeAddon } from '../addon/index.js';
import { toFetchHandler } from './fetch.js';
import { listen } from './node.js';
import { createRequestHandler } from './node-handler.js';
import type { BodyStream, CoreResponse } from './types.js';

const addon = composeAddon({ id: 'org.test.stream', version: '1.0.0', name: 'Stream test', description: '' }, []);

/** An endless body of 1 MiB chunks that counts how many were pulled and whether it was ended. */
function endless(): { body: BodyStream; pulled: () => number; ended: () => boolean } {
  let pulled = 0;
  let ended = false;
  const chunk = new Uint8Array(1024 * 1024);
  const body: BodyStream = {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          pulled++;
          return { done: false, value: chunk };
        },
        async return() {
          ended = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { body, pulled: () => pulled, ended: () => ended };
}

const streamed = (body: BodyStream): CoreResponse => ({
  status: 200,
  headers: { 'content-type': 'application/octet-stream' },
  body: '',
  stream: body,
});

describe('streaming bodies', () => {
  it('the Node adapter pulls only what a slow client takes, and ends the body when it leaves', async () => {
    const source = endless();
    const handler = createRequestHandler(addon, { mounts: { live: () => streamed(source.body) } });
    const server = await listen(handler, { port: 0, host: '127.0.0.1' });
    try {
      const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        const req = request(`${server.url}/live/x`, resolve);
        req.on('error', reject);
        req.end();
      });
      expect(response.statusCode).toBe(200);
      // The client reads nothing for a while: the server stops pulling once the socket is full.
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const held = source.pulled();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(source.pulled()).toBe(held);
      expect(held).toBeLessThan(64);
      response.destroy();
      await expect.poll(() => source.ended()).toBe(true);
    } finally {
      await server.close(100);
    }
  });

  it('a mount gets the path after its segment, under the base path; others are not its', async () => {
    const seen: string[] = [];
    const handler = createRequestHandler(addon, {
      basePath: '/tv',
      mounts: {
        relay: (req, path) => {
          seen.push(`${req.method} ${path}`);
          return { status: 204, headers: {}, body: '' };
        },
      },
    });
    const ask = (url: string, method = 'GET') => handler({ method, url, header: () => undefined });
    expect((await ask('/tv/relay/abc/index.m3u8?x=1')).status).toBe(204);
    expect((await ask('/tv/relayed/abc')).status).toBe(404);
    expect((await ask('/relay/abc')).status).toBe(404);
    // CORS preflights are the server's own.
    expect((await ask('/tv/relay/abc', 'OPTIONS')).status).toBe(204);
    expect(seen).toEqual(['GET /abc/index.m3u8']);
  });

  it('the Fetch adapter answers a ReadableStream, and cancelling it ends the body', async () => {
    const source = endless();
    const handler = toFetchHandler(createRequestHandler(addon, { mounts: { live: () => streamed(source.body) } }));
    const response = await handler(new Request('http://x.example/live/1'));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(1024 * 1024);
    await reader.cancel();
    expect(source.ended()).toBe(true);
    expect(source.pulled()).toBeLessThanOrEqual(2);
  });
});
