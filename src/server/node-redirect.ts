/** `serve --https-redirect-port`: a plain-HTTP port beside an https server that sends everyone to https. */
import { createServer, type Server, type ServerOptions } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { capConnections } from './node-cap.js';

/** Where the redirect port sends a client: the operator's names, never what the request says. */
export interface RedirectTarget {
  /** `publicUrl`: its host (and port) is the address. */
  readonly publicUrl?: string;
  /** The names the certificate in use covers (read at each request: a renewal may change them). */
  readonly names: () => readonly string[];
  /** The address listened on, when the certificate names nothing usable. */
  readonly listenHost: string;
  readonly httpsPort: number;
}

/** A name as it goes in a URL's host: IPv6 addresses in brackets. */
const urlHost = (name: string) => (isIP(name) === 6 ? `[${name}]` : name);

/**
 * The https origin a request to the redirect port is sent to: `publicUrl`'s, else a name of the
 * certificate (the one the client asked for when it is one of them exactly, else the first that
 * is neither a wildcard nor localhost), else the address listened on. The request's `Host` only
 * ever picks among the certificate's names: `Host: evil.example` leads to the operator's name.
 * @example redirectOrigin({ names: () => ['tv.example.org'], listenHost: '0.0.0.0', httpsPort: 8443 }, 'evil.example') // 'https://tv.example.org:8443'
 */
export function redirectOrigin(target: RedirectTarget, asked: string | undefined): string {
  if (target.publicUrl !== undefined) {
    try {
      const url = new URL(target.publicUrl);
      if (url.protocol === 'https:') return url.origin;
      return `https://${url.host.replace(/:\d+$/, '')}${portPart(target.httpsPort)}`;
    } catch {
      // Settings check publicUrl; fall through to the certificate's names.
    }
  }
  const names = target.names().filter((name) => name !== '' && !name.includes('*'));
  const wanted = asked
    ?.trim()
    .toLowerCase()
    .replace(/:\d{1,5}$/, '')
    .replace(/^\[|\]$/g, '');
  const name =
    names.find((n) => n.toLowerCase() === wanted) ??
    names.find((n) => n !== 'localhost' && isIP(n) === 0) ??
    names[0] ??
    (target.listenHost === '0.0.0.0' || target.listenHost === '::' ? 'localhost' : target.listenHost);
  return `https://${urlHost(name)}${portPart(target.httpsPort)}`;
}

const portPart = (port: number) => (port === 443 ? '' : `:${port}`);

/**
 * A plain-HTTP port that sends every request to the same path over https (`308`, which keeps the
 * method), at the origin `redirectOrigin` gives.
 */
export async function listenRedirect(
  port: number,
  host: string,
  target: RedirectTarget,
  cap: number,
  timeouts: ServerOptions,
): Promise<{ server: Server; port: number; stop(): void }> {
  const server = createServer(timeouts, (req, res) => {
    const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
    res.writeHead(308, {
      location: `${redirectOrigin(target, req.headers.host)}${path}`,
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
