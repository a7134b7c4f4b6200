/**
 * SHOUTcast v1 radio servers answer `ICY 200 OK` instead of an HTTP status line. Players read it
 * as HTTP; Node's parser does not. A health pass judges such an answer by its status and the audio
 * that follows, so a playing radio stream is ok, not "not media" (and never hidden as dead).
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLiveTv, runHealthPass } from '../src/livetv/index.js';
import type { StreamRow } from '../src/store/index.js';
import { type TempStore, tempStore } from './fixtures/livetv/setup.js';

/** MPEG-1 Layer III frame headers (0xFFFB: 128 kbit/s, 44.1 kHz) with silence between. */
const mp3 = Buffer.concat(
  Array.from({ length: 8 }, () => Buffer.from([0xff, 0xfb, 0x90, 0x64, ...Array(413).fill(0)])),
);

/** Each path's raw answer: what an ICY server writes, byte for byte. */
const ANSWERS: Record<string, (socket: Socket) => void> = {
  // Headers and the first audio in one write, then more audio, never ending.
  '/radio': (socket) => {
    socket.write(
      Buffer.concat([Buffer.from('ICY 200 OK\r\nicy-name: Radio\r\ncontent-type: audio/mpeg\r\n\r\n'), mp3]),
    );
    const more = setInterval(() => socket.write(mp3), 50);
    socket.on('close', () => clearInterval(more));
  },
  // Headers alone first: the audio comes a moment later.
  '/slow': (socket) => {
    socket.write('ICY 200 OK\r\nicy-br: 128\r\n\r\n');
    const later = setTimeout(() => socket.write(mp3), 200);
    socket.on('close', () => clearTimeout(later));
  },
  '/html': (socket) => {
    socket.end('ICY 200 OK\r\ncontent-type: text/html\r\n\r\n<!DOCTYPE html><html><body>Server full</body></html>');
  },
  '/gone': (socket) => socket.end('ICY 404 Resource Not Found\r\n\r\n'),
  '/full': (socket) => socket.end('ICY 401 Service Unavailable\r\n\r\n'),
  // Not HTTP and not ICY: still not something a player opens.
  '/junk': (socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'),
};

let server: Server;
const sockets = new Set<Socket>();
let temp: TempStore;

const health = (id: string): StreamRow['health'] => temp.store.getStreams(`mq-tv:${id}.test`)[0]?.health;

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => {});
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (data) => {
      const path = /^GET (\S+)/.exec(data.toString('latin1'))?.[1] ?? '';
      (ANSWERS[path] ?? ((s: Socket) => s.end('ICY 404 Not Found\r\n\r\n')))(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  temp = tempStore();
  const lines = ['#EXTM3U'];
  for (const path of Object.keys(ANSWERS)) {
    lines.push(
      `#EXTINF:-1 tvg-id="${path.slice(1)}.test" radio="true",${path.slice(1)}`,
      `http://127.0.0.1:${port}${path}`,
    );
  }
  const file = join(temp.dir, 'radio.m3u');
  writeFileSync(file, `${lines.join('\n')}\n`);
  await importLiveTv(temp.store, { playlists: [{ location: file }] });
  await runHealthPass(temp.store, { allowPrivate: true, timeoutSeconds: 2, perHost: 8, pauseMs: 0 });
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  temp.cleanup();
});

describe('a health pass and SHOUTcast (ICY) servers', () => {
  it('an ICY 200 with audio is ok, whether the audio comes with the headers or after them', () => {
    expect(health('radio')).toMatchObject({ state: 'ok', detail: 'ICY (SHOUTcast) stream: MPEG audio', failures: 0 });
    expect(health('slow')).toMatchObject({ state: 'ok', detail: 'ICY (SHOUTcast) stream', failures: 0 });
  });

  it('an ICY 200 that sends a page is not media; ICY 404 is dead and ICY 401 blocked', () => {
    expect(health('html')).toMatchObject({ state: 'not-media', detail: 'ICY 200: an HTML page' });
    expect(health('gone')).toMatchObject({ state: 'dead', detail: 'ICY 404', failures: 1 });
    expect(health('full')).toMatchObject({ state: 'blocked', detail: 'ICY 401' });
  });

  it('an answer that is neither HTTP nor ICY stays not media', () => {
    expect(health('junk')).toMatchObject({ state: 'not-media' });
    expect(health('junk')?.detail).toMatch(/^not an HTTP answer \(HPE_/);
  });
});
