/**
 * Listening as the settings say (port, host, connection cap, proxy trust, HTTPS and its redirect
 * port), and the public base address the start-up lines show: `serve` and `serve --hosted` alike.
 */
import { readFileSync } from 'node:fs';
import { listen, type RequestHandler, type TlsReloadEvent } from '../server/index.js';
import { untrustedReason } from './certificate-trust.js';
import type { Settings } from './settings.js';

/** Where `listenPerSettings` tells about the certificate: renewals taken, files not taken. */
export interface TlsLog {
  event(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** A certificate ending within this long is worth a warning at start: renewals usually run 30 days ahead. */
const EXPIRY_WARNING_MS = 14 * 24 * 3_600_000;

/**
 * @example const { running, base } = await listenPerSettings(handler, settings) // base 'http://127.0.0.1:7000'
 */
export async function listenPerSettings(
  handler: RequestHandler,
  settings: Settings,
  log?: TlsLog,
): Promise<{ running: Awaited<ReturnType<typeof listen>>; host: string; base: string }> {
  const host = settings.host ?? '127.0.0.1';
  const tls = settings.tls?.cert && settings.tls.key ? { cert: settings.tls.cert, key: settings.tls.key } : undefined;
  const running = await listen(handler, {
    port: settings.port ?? 7000,
    host,
    ...(settings.security?.maxConnectionsPerAddress !== undefined
      ? { maxConnectionsPerAddress: settings.security.maxConnectionsPerAddress }
      : {}),
    ...(settings.security?.trustProxy ? { trustProxy: true } : {}),
    ...(tls
      ? {
          tls: {
            certFile: tls.cert,
            keyFile: tls.key,
            onReload: (event: TlsReloadEvent) => {
              if (event.ok) {
                log?.event(
                  `TLS certificate reloaded from ${tls.cert}: serial ${event.serial}, valid until ${event.validTo}`,
                );
              } else log?.warn(`TLS certificate files changed but were not taken: ${event.message}`);
            },
          },
        }
      : {}),
    ...(settings.tls?.redirectPort !== undefined ? { httpsRedirectPort: settings.tls.redirectPort } : {}),
    ...(settings.publicUrl !== undefined ? { publicUrl: settings.publicUrl } : {}),
  });
  const certificate = running.tls?.certificate();
  if (certificate) {
    const left = Date.parse(certificate.validTo) - Date.now();
    if (left <= 0) log?.warn(`the TLS certificate ${tls?.cert} expired on ${certificate.validTo}: clients refuse it`);
    else if (left < EXPIRY_WARNING_MS)
      log?.warn(
        `the TLS certificate ${tls?.cert} expires on ${certificate.validTo}: renew it (it is read again when it changes)`,
      );
  }
  if (certificate && tls) warnUntrusted(tls.cert, log);
  const everywhere = host === '0.0.0.0' || host === '::';
  const listened = everywhere ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  // Over https the address to give out is a name the certificate covers (a client checks it): on
  // every interface, the name a TV or phone uses rather than this machine's own loopback.
  const named = certificate?.names.find(
    (name) => !name.startsWith('*') && name !== 'localhost' && !/^[\d.]+$|:/.test(name),
  );
  const covered = certificate === undefined || certificate.names.includes(listened.replace(/^\[|\]$/g, ''));
  const shownHost = named !== undefined && (everywhere || !covered) ? named : listened;
  const base = (
    settings.publicUrl ?? `${tls ? 'https' : 'http'}://${shownHost}:${running.port}${settings.basePath ?? ''}`
  ).replace(/\/+$/, '');
  return { running, host, base };
}

/** A certificate TVs and phones will not trust (self-signed, a CA of your own) is said at start. */
function warnUntrusted(file: string, log: TlsLog | undefined): void {
  let reason: string | undefined;
  try {
    reason = untrustedReason(readFileSync(file));
  } catch {
    return; // Read a moment ago by the server; a file gone since is the reload watcher's to report.
  }
  if (reason === undefined) return;
  log?.warn(
    `the TLS certificate ${file} will not be trusted by TVs and phones: ${reason}. Stremio there refuses an add-on ` +
      'served with it (a browser told to accept it works). Use a certificate from a public authority, such as ' +
      "Let's Encrypt's (docs/https.md)",
  );
}
