/**
 * A client that hangs up in the middle of a POST /configure body (issue 18): a `debug` line, not
 * an `error` with a stack trace per connection, and the server goes on answering.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/server/index.js';
import { httpRequest } from '../helpers/http.js';
import { createSite, type Site } from './site.js';

let site: Site;
let server: RunningServer;
const lines: { level: string; record: Record<string, unknown> }[] = [];
beforeAll(async () => {
  site = await createSite();
  const logger = {
    requests: false,
    info: (record: Record<string, unknown>) => lines.push({ level: 'info', record }),
    error: (record: Record<string, unknown>) => lines.push({ level: 'error', record }),
    debug: (record: Record<string, unknown>) => lines.push({ level: 'debug', record }),
  };
  server = await listen(site.handler({ logger }), { port: 0 });
});
afterAll(async () => {
  await server.close();
  site.close();
});

describe('a POST /configure cut short by the client', () => {
  it('is a debug line, and the server keeps answering', async () => {
    const port = Number(new URL(server.url).port);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /configure HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncfg_groups=Cul',
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 30);
        });
      });
    }
    const deadline = Date.now() + 5_000;
    while (lines.filter((l) => l.level === 'debug').length < 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    const debug = lines.filter((l) => l.level === 'debug');
    expect(debug).toHaveLength(5);
    expect(debug[0]!.record).toMatchObject({
      method: 'POST',
      path: '/configure',
      msg: 'the client closed the connection before the body arrived',
    });
    expect(debug[0]!.record.stack).toBeUndefined();
    expect((await httpRequest(server.url, '/manifest.json')).status).toBe(200);
  });
});
