/**
 * `listen`'s per-address connection cap, which notices closed connections by their `destroyed`
 * flag instead of a `close` listener: past the cap a new connection is closed at once, and a
 * connection that closed frees its slot for the next one from that address. And the headers a
 * prepared answer is written with, which node.ts takes from a flat list kept beside them.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAddon } from '../addon/index.js';
import { listen, type RunningServer } from './node.js';
import { createRequestHandler } from './node-handler.js';
import type { CoreRequest, CoreResponse } from './types.js';

function library() {
  return createAddon({
    manifest: {
      id: 'org.test.headers',
      version: '1.0.0',
      name: 'Headers',
      description: '',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
    },
    handlers: {
      catalog: async () => ({
        metas: [{ id: 'tt1000001', type: 'movie', name: 'Film' }],
        cacheMaxAge: 600,
      }),
    },
  });
}

const body = 'hello';
const ok: CoreResponse = {
  status: 200,
  headers: { 'content-type': 'text/plain', 'content-length': String(body.length) },
  body,
};

let running: RunningServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await running?.close(100);
  running = undefined;
});

/** A connection that asks for one page and stays open; `answered` is its status line, or 'closed'. */
function ask(port: number): Promise<{ socket: Socket; answered: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let data = '';
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => {
      data += d.toString();
      if (data.includes('\r\n\r\n')) resolve({ socket, answered: data.slice(0, data.indexOf('\r\n')) });
    });
    socket.on('close', () => resolve({ socket, answered: data ? data.slice(0, data.indexOf('\r\n')) : 'closed' }));
    socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n');
  });
}

describe('connections per address', () => {
  it('closes a new one past the cap, and frees a slot when one closes', async () => {
    running = await listen(() => ok, { port: 0, maxConnectionsPerAddress: 3 });
    const held = await Promise.all([ask(running.port), ask(running.port), ask(running.port)]);
    expect(held.map((h) => h.answered)).toEqual(Array(3).fill('HTTP/1.1 200 OK'));
    expect((await ask(running.port)).answered).toBe('closed');

    // Two close; two new ones are served, and the one after them is refused again.
    for (const h of held.slice(0, 2)) h.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const again = [await ask(running.port), await ask(running.port)];
    expect(again.map((h) => h.answered)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect((await ask(running.port)).answered).toBe('closed');
  });

  it('serves many connections in turn from one address, each closed before the next', async () => {
    running = await listen(() => ok, { port: 0, maxConnectionsPerAddress: 2 });
    for (let i = 0; i < 20; i++) {
      const { socket, answered } = await ask(running.port);
      expect(answered).toBe('HTTP/1.1 200 OK');
      socket.destroy();
      await new Promise((r) => socket.once('close', r));
      // The server side notices the client's close on its next turn.
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  it('writes a prepared answer with its own headers, and a copy with changed headers with the copy', async () => {
    const handle = createRequestHandler(library(), { responseCache: { admitAfter: 1 } });
    // A wrapper that changes one header of an answer (hosted mode's pending answers do).
    const wrapped = async (request: CoreRequest): Promise<CoreResponse> => {
      const answer = await handle(request);
      return request.url.endsWith('?changed')
        ? { ...answer, headers: { ...answer.headers, 'cache-control': 'max-age=30' } }
        : answer;
    };
    running = await listen(wrapped, { port: 0 });
    const path = `${running.url}/catalog/movie/films.json`;
    await fetch(path).then((r) => r.text());
    const cached = await fetch(path);
    expect(cached.headers.get('cache-control')).toMatch(/^max-age=600/);
    expect(cached.headers.get('etag')).toMatch(/^W\//);
    expect(cached.headers.get('content-length')).toBe(String((await cached.arrayBuffer()).byteLength));
    const changed = await fetch(`${path}?changed`);
    expect(changed.headers.get('cache-control')).toBe('max-age=30');
    expect(changed.headers.get('etag')).toBe(cached.headers.get('etag'));
  });
});
