/**
 * HTTPS served by the Node adapter (`listen({ tls })`) with a certificate from a test CA made
 * with openssl: answers over TLS with the same handler, limits and caps as plain HTTP; a renewed
 * certificate (new serial, files replaced) is served without a restart; a renewal caught
 * half-written is not used and the server keeps answering with the certificate it has; bad
 * files at start are refused naming the file; the plain redirect port sends clients to https.
 */
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import { isMarqueeError } from '../src/errors.js';
import { createRequestHandler, listen, type RunningServer, type TlsReloadEvent } from '../src/server/index.js';
import { httpRequest } from './helpers/http.js';
import {
  httpsGet,
  type IssuedCertificate,
  issueCertificate,
  makeTestCa,
  servedSerial,
  type TestCa,
} from './helpers/tls.js';
import { describeWith } from './helpers/tools.js';

let dir: string;
let ca: TestCa;
let first: IssuedCertificate;

const addon = () =>
  createAddon({
    manifest: {
      id: 'org.test.https',
      version: '1.0.0',
      name: 'Over TLS',
      description: 'Served over https',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
    },
    handlers: {
      catalog: () => ({
        metas: [{ id: 'tt1254207', type: 'movie', name: 'Big Buck Bunny', poster: 'https://p.example/1.jpg' }],
      }),
    },
  });

/** GET over https on `port`, as `localhost`, trusting only the test CA. */
function get(port: number, path: string): Promise<{ status: number; text: string }> {
  return httpsGet(`https://localhost:${port}${path}`, ca.certFile);
}

/** Poll until `ready` holds (a file check runs every `checkEveryMs`). */
async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ready(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-https-'));
  ca = makeTestCa(dir);
  first = issueCertificate(ca, dir, 'first', { serial: 0x1001 });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWith(['openssl'], 'listen({ tls })', () => {
  it('serves the add-on over HTTP/1.1 and TLS, its pages naming the https address', async () => {
    const running = await listen(createRequestHandler(addon()), {
      port: 0,
      tls: { certFile: first.certFile, keyFile: first.keyFile },
    });
    try {
      expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(running.tls?.certificate()).toMatchObject({ serial: '1001', names: ['localhost', '127.0.0.1'] });
      const manifest = await get(running.port, '/manifest.json');
      expect(manifest.status).toBe(200);
      expect(JSON.parse(manifest.text).id).toBe('org.test.https');
      const page = await get(running.port, '/catalog/movie/films.json');
      expect(JSON.parse(page.text).metas).toHaveLength(1);
      // The front page knows it is served over https: the one-click install link is offered.
      const front = await get(running.port, '/');
      expect(front.text).toContain(`href="stremio://localhost:${running.port}/manifest.json"`);
      // Plain HTTP on the TLS port is not answered as HTTP.
      await expect(httpRequest(`http://127.0.0.1:${running.port}`, '/manifest.json')).rejects.toThrow();
    } finally {
      await running.close(100);
    }
  });

  it('takes a renewed certificate without a restart, and keeps its own while a renewal is half-written', async () => {
    const live = join(dir, 'live');
    rmSync(live, { recursive: true, force: true });
    const certFile = `${live}.crt`;
    const keyFile = `${live}.key`;
    copyFileSync(first.certFile, certFile);
    copyFileSync(first.keyFile, keyFile);
    const events: TlsReloadEvent[] = [];
    const running: RunningServer = await listen(createRequestHandler(addon()), {
      port: 0,
      tls: { certFile, keyFile, checkEveryMs: 50, onReload: (e) => events.push(e) },
    });
    try {
      expect(await servedSerial(running.port, ca.certFile)).toBe('1001');

      // A renewal written over the files in place, caught half-way: a cut certificate.
      const second = issueCertificate(ca, dir, 'second', { serial: 0x1002 });
      const whole = readFileSync(second.certFile);
      writeFileSync(certFile, whole.subarray(0, 200));
      await until(
        async () => events.length,
        (n) => n >= 1,
      );
      expect(events[0]).toMatchObject({ ok: false });
      expect((events[0] as { message: string }).message).toBe(
        `the TLS certificate ${certFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----); the certificate in use is kept`,
      );
      expect(await servedSerial(running.port, ca.certFile)).toBe('1001');
      expect((await get(running.port, '/manifest.json')).status).toBe(200);

      // The whole certificate, the key not yet: a pair that does not match is not taken either. Renamed
      // into place: written over in place, a check between the truncation and the write read another
      // cut certificate first (seen under load).
      writeFileSync(`${certFile}.new`, whole);
      renameSync(`${certFile}.new`, certFile);
      await until(
        async () => events.length,
        (n) => n >= 2,
      );
      expect((events[1] as { message: string }).message).toMatch(
        new RegExp(`^the TLS key ${keyFile} is not the key of the certificate ${certFile}`),
      );
      expect(await servedSerial(running.port, ca.certFile)).toBe('1001');

      // The key arrives (renamed into place, as renewal tools write it): the new certificate is served.
      copyFileSync(second.keyFile, `${keyFile}.new`);
      renameSync(`${keyFile}.new`, keyFile);
      expect(
        await until(
          () => servedSerial(running.port, ca.certFile),
          (s) => s === '1002',
        ),
      ).toBe('1002');
      expect(events[2]).toMatchObject({ ok: true, serial: '1002' });
      expect(running.tls?.certificate().serial).toBe('1002');
      expect((await get(running.port, '/manifest.json')).status).toBe(200);

      // The files gone for a moment (a renewal deleting before writing): said once, the certificate kept.
      rmSync(keyFile);
      await until(
        async () => events.length,
        (n) => n >= 4,
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(events).toHaveLength(4);
      expect(events[3]).toMatchObject({
        ok: false,
        message: expect.stringMatching(/\.key cannot be read: file not found; the certificate in use is kept$/),
      });
      expect(await servedSerial(running.port, ca.certFile)).toBe('1002');
      copyFileSync(first.keyFile, keyFile);
      copyFileSync(first.certFile, certFile);
      // `reload()` (SIGHUP) reads them now.
      expect(await running.tls?.reload()).toMatchObject({ ok: true, serial: '1001' });
    } finally {
      await running.close(100);
    }
  });

  it('keeps the per-address connection cap over TLS', async () => {
    const running = await listen(createRequestHandler(addon()), {
      port: 0,
      maxConnectionsPerAddress: 2,
      tls: { certFile: first.certFile, keyFile: first.keyFile, checkEveryMs: 0 },
    });
    const sockets: ReturnType<typeof connectTcp>[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const socket = connectTcp(running.port, '127.0.0.1');
        sockets.push(socket);
        await new Promise((r) => socket.once('connect', r));
      }
      // The third connection from this address is closed before its handshake.
      const refused = await new Promise<string>((resolve) => {
        const socket = connectTls({
          host: '127.0.0.1',
          port: running.port,
          ca: readFileSync(ca.certFile),
          servername: 'localhost',
        });
        socket.on('secureConnect', () => resolve('handshake'));
        socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        socket.on('close', () => resolve('closed'));
      });
      expect(refused).not.toBe('handshake');
    } finally {
      for (const s of sockets) s.destroy();
      await running.close(100);
    }
  });

  it('refuses files that cannot serve, naming the file', async () => {
    const other = issueCertificate(ca, dir, 'other', { serial: 0x2001 });
    const cases: [string, string, RegExp][] = [
      [join(dir, 'missing.crt'), first.keyFile, /^the TLS certificate .*missing\.crt cannot be read: file not found$/],
      [
        first.keyFile,
        first.certFile,
        /^the TLS certificate .*first\.key holds no PEM certificate .*were the certificate and key swapped\?$/,
      ],
      [first.certFile, other.keyFile, /^the TLS key .*other\.key is not the key of the certificate .*first\.crt$/],
    ];
    for (const [certFile, keyFile, message] of cases) {
      const error = await listen(createRequestHandler(addon()), { port: 0, tls: { certFile, keyFile } }).catch(
        (e) => e,
      );
      expect(isMarqueeError(error, 'INVALID_SETTINGS'), String(error)).toBe(true);
      expect(error.message).toMatch(message);
    }
  });

  it('redirects the plain port to https, same path, on a name of the certificate or publicUrl, never the Host asked', async () => {
    const running = await listen(createRequestHandler(addon()), {
      port: 0,
      httpsRedirectPort: 0,
      tls: { certFile: first.certFile, keyFile: first.keyFile, checkEveryMs: 0 },
    });
    try {
      expect(running.redirect?.port).toBeGreaterThan(0);
      const plain = `http://127.0.0.1:${running.redirect!.port}`;
      // A name the certificate covers (localhost, 127.0.0.1) is kept as asked.
      const moved = await httpRequest(plain, '/catalog/movie/films.json?x=1', {
        headers: { host: `127.0.0.1:${running.redirect!.port}` },
      });
      expect(moved.status).toBe(308);
      expect(moved.headers.location).toBe(`https://127.0.0.1:${running.port}/catalog/movie/films.json?x=1`);
      // Any other Host (issue 48: `Location: https://evil.example:…`) gets the certificate's name.
      for (const host of [`evil.example:${running.redirect!.port}`, 'evil.example', 'evil.example/<x>', '[::1]']) {
        const foreign = await httpRequest(plain, '/configure', { headers: { host } });
        expect(foreign.status).toBe(308);
        expect(foreign.headers.location).toBe(`https://localhost:${running.port}/configure`);
      }
    } finally {
      await running.close(100);
    }
    // With publicUrl, its host whatever the request says.
    const published = await listen(createRequestHandler(addon()), {
      port: 0,
      httpsRedirectPort: 0,
      publicUrl: 'https://tv.example.org:8443/tv',
      tls: { certFile: first.certFile, keyFile: first.keyFile, checkEveryMs: 0 },
    });
    try {
      const plain = `http://127.0.0.1:${published.redirect!.port}`;
      for (const host of ['evil.example', 'localhost', `127.0.0.1:${published.redirect!.port}`]) {
        const moved = await httpRequest(plain, '/tv/manifest.json', { headers: { host } });
        expect(moved.headers.location).toBe('https://tv.example.org:8443/tv/manifest.json');
      }
    } finally {
      await published.close(100);
    }
    await expect(listen(createRequestHandler(addon()), { port: 0, httpsRedirectPort: 0 })).rejects.toThrow(
      /a redirect to https needs a certificate/,
    );
  });
});
