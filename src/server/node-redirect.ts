/** `serve --https-redirect-port`: a plain-HTTP port beside an https server that sends everyone to https. */
import { createServer, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { capConnections } from './node-cap.js';
import { HOST_HEADER } from './request-path.js';

/**
 * A plain-HTTP port that sends every request to the same path over https, on the https port
 * (`308`, which keeps the method). The host is the one the client asked for (checked, never a
 * header's arbitrary text), else the address listened on.
 */
export async function listenRedirect(
  port: number,
  host: string,
  httpsPort: number,
  cap: number,
  timeouts: ServerOptions,
): Promise<{ server: Server; port: number; stop(): void }> {
  const fallback = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const server = createServer(timeouts, (req, res) => {
    const asked = req.headers.host ?? '';
    const name = HOST_HEADER.test(asked) ? asked.replace(/:\d{1,5}$/, '') : fallback;
    const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
    res.writeHead(308, {
      location: `https://${name}${httpsPort === 443 ? '' : `:${httpsPort}`}${path}`,
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
      'content-length': '0',
    });
    res.end();
  });
  const connections = cap > 0 ? capConnections(server, cap) : undefined;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port, stop: () => connections?.stop() };
}
