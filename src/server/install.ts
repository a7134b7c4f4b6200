/**
 * How to install the add-on, as its address allows: the install section of the front and
 * configure pages, and the rules `marquee serve` prints its install line by. Everything is
 * rendered on the server (the QR code as inline SVG).
 */
import { renderSVG } from 'uqr';
import { HTTPS_GUIDE_PATH } from './guide-page.js';
import { html, SafeHtml } from './html.js';

/** A QR code of `link` as inline SVG; empty when the link is too long for a QR code. */
export function qrSvg(link: string): SafeHtml {
  try {
    // renderSVG draws only squares: nothing of the link is written into the markup.
    return new SafeHtml(renderSVG(link, { ecc: 'M' }).replace('<svg ', '<svg role="img" aria-label="QR code" '));
  } catch {
    return new SafeHtml('');
  }
}

/** The Stremio Web address that offers to install the add-on at `manifestUrl`. */
export function stremioWebLink(manifestUrl: string): string {
  return `https://web.stremio.com/#/addons?addon=${encodeURIComponent(manifestUrl)}`;
}

/**
 * The path, under the add-on's base URL, of the HTTPS guide a server given `httpsGuide` serves
 * (`HTTPS_GUIDE_PATH`). Kept under this name for code that imported it; it once named a package
 * CDN's copy of docs/https.md, which no server could count on reaching.
 *
 * @deprecated use `HTTPS_GUIDE_PATH`, under the add-on's base URL.
 */
export const HTTPS_GUIDE_URL: string = HTTPS_GUIDE_PATH;

/**
 * How the client can install the add-on at `manifestUrl`. Stremio's `stremio://` links always
 * mean `https://` (stremio-core swaps the scheme before it fetches), and the client installs from
 * other machines only over https: `https` has the one-click link; plain HTTP on this machine
 * (`loopback`) installs by pasting the address into the app on the same machine or from Stremio
 * Web there (a browser lets an https page read http://127.0.0.1); plain HTTP on any other
 * address (`plain`) reaches no TV or phone.
 *
 * @example installReach('http://192.168.1.5:7000/manifest.json') // 'plain'
 */
export function installReach(manifestUrl: string): 'https' | 'loopback' | 'plain' {
  let url: URL;
  try {
    url = new URL(manifestUrl);
  } catch {
    return 'plain';
  }
  if (url.protocol === 'https:') return 'https';
  return isLoopbackHost(url.hostname) ? 'loopback' : 'plain';
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1, as a URL's hostname writes them. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]' ||
    host === '::1'
  );
}

/** The install link of an https manifest URL: the same address behind `stremio://`. */
export function stremioLink(manifestUrl: string): string {
  return manifestUrl.replace(/^https:\/\//, 'stremio://');
}

/** The manifest address with its Copy button (the front, configure and exported landing pages). */
export function addressField(manifestUrl: string, label: string): SafeHtml {
  return html`<label for="manifest-url">${label}</label>
<div class="copy"><input id="manifest-url" type="text" readonly value="${manifestUrl}">
<button type="button" class="button" data-copy="manifest-url">Copy</button></div>`;
}

/**
 * How to serve it over HTTPS: a link to the guide page when the server serves one (`guideUrl`),
 * else the guide named in words (a link to a page that is not there would be a dead one).
 */
function guideLink(guideUrl: string | undefined): SafeHtml {
  return guideUrl !== undefined
    ? html`<a class="https-guide" href="${guideUrl}">how to serve it over HTTPS</a>`
    : html`how to serve it over HTTPS is in Marquee's guide <code>docs/https.md</code>`;
}

/**
 * The install section, as the address allows (`installReach`): over https the stremio://
 * button, Stremio Web, the copyable address and a QR code of the install link (for a phone with
 * Stremio); over plain HTTP on this machine Stremio Web and the address to paste, saying why
 * there is no one-click install; over plain HTTP elsewhere, that a TV or phone needs HTTPS.
 * Over plain HTTP it links the HTTPS guide at `guideUrl` (the served page), when there is one.
 */
export function installSection(manifestUrl: string, guideUrl?: string): SafeHtml {
  const reach = installReach(manifestUrl);
  if (reach === 'https') {
    const stremioUrl = stremioLink(manifestUrl);
    return html`<section class="install" aria-label="Install">
<div class="install-actions">
<p class="buttons"><a class="button" href="${stremioUrl}">Install in Stremio</a>
<a class="button secondary" href="${stremioWebLink(manifestUrl)}" rel="noreferrer" target="_blank">Open in Stremio Web</a></p>
${addressField(manifestUrl, "Or paste this address into Stremio's add-on search:")}
</div>
<figure class="qr">${qrSvg(stremioUrl)}<figcaption>Scan to install on a phone with Stremio</figcaption></figure>
</section>`;
  }
  const guide = guideLink(guideUrl);
  if (reach === 'loopback') {
    return html`<section class="install" aria-label="Install">
<div class="install-actions">
<p class="buttons"><a class="button" href="${stremioWebLink(manifestUrl)}" rel="noreferrer" target="_blank">Open in Stremio Web</a></p>
${addressField(manifestUrl, 'Or paste this address into the add-on search of the Stremio app on this computer:')}
<p class="hint why">No one-click install: a Stremio install link always opens the <code>https://</code> address, and this server answers plain HTTP. Stremio on this computer accepts the <code>http://</code> address; a TV or phone needs HTTPS: ${guide}.</p>
</div>
</section>`;
  }
  return html`<section class="install needs-https" aria-label="Install">
<div class="install-actions">
<h2>Your TV or phone needs HTTPS</h2>
<p>Stremio installs add-ons from other devices only over <code>https://</code>, and this server answers plain HTTP. Serve it over HTTPS (<code>marquee serve --tls-cert FILE --tls-key FILE</code>, or Caddy, Tailscale or a Cloudflare Tunnel in front of it): ${guide}.</p>
${addressField(manifestUrl, 'Its address over plain HTTP (Stremio on another device will not install it):')}
</div>
</section>`;
}
