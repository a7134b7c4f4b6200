/**
 * `listen(...).close(graceMs)`: stops accepting at once, lets a request in flight finish and be
 * answered, closes idle keep-alive connections without waiting for their timeout, and past the
 * grace period closes whatever is left.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from './node.js';
import type { CoreResponse } from './types.js';

const ok = (body: string): CoreResponse => ({
  status: 200,
  headers: { 'content-type': 'text/plain', 'content-length': String(body.length) },
  body,
});

function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d: Buffer) => {
      data += d.toString();
    });
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`;

describe('close', () => {
  it('answers the request in flight, then closes its connection and the idle ones promptly', async () => {
    let finish: (() => void) | undefined;
    const running = await listen(
      (request) =>
        request.url === '/slow'
          ? new Promise<CoreResponse>((resolve) => {
              finish = () => resolve(ok('slow done'));
            })
          : ok('fast'),
      { port: 0 },
    );
    const idle = await open(running.port);
    idle.socket.write(GET('/fast'));
    await expect.poll(() => idle.received()).toMatch(/fast$/);
    const busy = await open(running.port);
    busy.socket.write(GET('/slow'));
    await expect.poll(() => finish).toBeDefined();

    const started = Date.now();
    const closing = running.close(5_000);
    // The idle keep-alive connection goes at once, not after its 5 s keep-alive timeout.
    await idle.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
    // No new connection is accepted.
    await expect(open(running.port)).rejects.toThrow();
    // The request in flight is answered in full, and only then is its connection closed.
    await new Promise((r) => setTimeout(r, 100));
    expect(busy.socket.destroyed).toBe(false);
    finish!();
    await closing;
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*slow done$/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('closes what is left when the grace period ends', async () => {
    const running = await listen(() => new Promise<CoreResponse>(() => {}), { port: 0 });
    const stuck = await open(running.port);
    stuck.socket.write(GET('/never'));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await running.close(300);
    await stuck.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(stuck.received()).toBe('');
  });
});
