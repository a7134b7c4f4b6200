/**
 * `serve`'s install lines, by the same rule as the front page (server/install.ts): a
 * `stremio://` link only for an https address, since the client always opens it as https.
 */
import { installReach, isLoopbackHost, stremioLink, stremioWebLink } from '../server/index.js';
import { atAddress } from './lan-addresses.js';

/**
 * The lines under `manifest:` for the add-on at `manifestUrl`, served on `host`; with `qr`, a
 * QR code of the install link (there is one only over https). Where a TV or phone needs HTTPS
 * they give `guideUrl`, the address of the guide page the server serves (else docs/https.md).
 * Listening on every interface over plain HTTP, they name the manifest at this machine's `lan`
 * addresses (lanAddresses), which a TV or phone on its network reaches, unlike 127.0.0.1.
 *
 * @example await installLines('http://127.0.0.1:7000/manifest.json', '127.0.0.1', false, 'http://127.0.0.1:7000/https')
 * // ['  install:   no one-click link over plain HTTP …']
 */
export async function installLines(
  manifestUrl: string,
  host: string,
  qr: boolean,
  guideUrl?: string,
  lan: readonly string[] = [],
): Promise<string[]> {
  const httpsAdvice = (label: string) =>
    `  ${`${label}:`.padEnd(11)}a TV or phone installs add-ons only over HTTPS: serve with --tls-cert and --tls-key, or behind an HTTPS proxy (how: ${guideUrl ?? 'docs/https.md'})`;
  const reach = installReach(manifestUrl);
  const lines: string[] = [];
  if (reach === 'https') {
    lines.push(`  install:   ${stremioLink(manifestUrl)}`);
  } else if (reach === 'loopback') {
    lines.push(
      '  install:   no one-click link over plain HTTP (a stremio:// link always opens https://): paste the',
      `             manifest address into Stremio on this machine, or open ${stremioWebLink(manifestUrl)}`,
    );
  } else {
    lines.push(httpsAdvice('install'));
  }
  // Listening on every interface over plain HTTP: the network reaches it, its TVs and phones cannot install it.
  if (reach === 'loopback' && !isLoopbackHost(host.includes(':') ? `[${host}]` : host)) {
    if (host === '0.0.0.0' || host === '::') {
      lines.push(
        lan.length > 0
          ? `  lan:       ${lan.map((a) => atAddress(manifestUrl, a)).join(', ')} (this machine on its network)`
          : '  lan:       this machine has no network address but its own (127.0.0.1): is it connected?',
      );
    }
    lines.push(httpsAdvice('network'));
  }
  if (qr) {
    lines.push(
      '',
      reach === 'https'
        ? (await import('uqr')).renderUnicodeCompact(stremioLink(manifestUrl))
        : '(no QR code: a phone installs add-ons only over HTTPS)',
    );
  }
  return lines;
}
