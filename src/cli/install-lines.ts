/**
 * `serve`'s install lines, by the same rule as the front page (server/install.ts): a
 * `stremio://` link only for an https address, since the client always opens it as https.
 */
import { HTTPS_GUIDE_URL, installReach, isLoopbackHost, stremioLink, stremioWebLink } from '../server/index.js';

/**
 * The lines under `manifest:` for the add-on at `manifestUrl`, served on `host`; with `qr`, a
 * QR code of the install link (there is one only over https).
 *
 * @example await installLines('http://127.0.0.1:7000/manifest.json', '127.0.0.1', false)
 * // ['  install:   no one-click link over plain HTTP …']
 */
export async function installLines(manifestUrl: string, host: string, qr: boolean): Promise<string[]> {
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

function httpsAdvice(label: string): string {
  return `  ${`${label}:`.padEnd(11)}a TV or phone installs add-ons only over HTTPS: serve with --tls-cert and --tls-key, or behind an HTTPS proxy (${HTTPS_GUIDE_URL})`;
}
