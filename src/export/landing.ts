import { randomBytes } from 'node:crypto';
import type { Manifest } from '../protocol/index.js';
import { html, SafeHtml } from '../server/html.js';
import { addressField, installReach, stremioLink } from '../server/install.js';
import { addonSummary, layout } from '../server/page.js';
import { type StaticPage, staticPage } from './static-page.js';

/**
 * `index.html` of a static export: the add-on's name, catalogs and install address, in the same
 * frame as the live server's landing page. The export does not know where it will be hosted, so
 * without `publicUrl` a small script fills the address in from the page's own location.
 */

/**
 * Sets the address from the page's own URL (the export's root) and, over https, the install link:
 * a `stremio://` link always opens the https address, so over plain HTTP there is none.
 */
const LOCATE_SCRIPT = `const url = new URL('manifest.json', location.href).href;
document.getElementById('manifest-url').value = url;
if (location.protocol === 'https:') {
  document.getElementById('install').href = url.replace(/^https:\\/\\//, 'stremio://');
  document.getElementById('install-row').hidden = false;
} else document.getElementById('needs-https').hidden = false;`;

/**
 * The landing page; every manifest string is escaped. It carries the served page's policy as a
 * `<meta>` (staticPage). Over plain HTTP it links the HTTPS guide at `guideHref` (the export's
 * own `https.html`, relative), or names the guide when the export has none.
 *
 * @example landingHtml(manifest, 'https://example.org/addon').html // '<!doctype html>…'
 */
export function landingHtml(manifest: Manifest, publicUrl?: string, guideHref?: string): StaticPage {
  return staticPage(landingBody(manifest, publicUrl, guideHref));
}

function landingBody(manifest: Manifest, publicUrl?: string, guideHref?: string): string {
  const manifestUrl = publicUrl === undefined ? 'manifest.json' : `${publicUrl.replace(/\/+$/, '')}/manifest.json`;
  // Known now only with publicUrl; otherwise the script decides from where the page is served.
  const https = publicUrl === undefined ? undefined : installReach(manifestUrl) === 'https';
  const nonce = randomBytes(12).toString('base64');
  const body = html`
${addonSummary(manifest)}
<p id="install-row"${https === true ? '' : html` hidden`}><a class="button" id="install" href="${https === true ? stremioLink(manifestUrl) : '#'}">Install in Stremio</a></p>
<p class="hint" id="needs-https"${https === false ? '' : html` hidden`}>Served over plain HTTP: Stremio installs add-ons from other devices only over <code>https://</code>; host these files over HTTPS for a one-click install (${
    guideHref !== undefined
      ? html`<a class="https-guide" href="${guideHref}">how to serve it over HTTPS</a>`
      : html`how is in Marquee's guide <code>docs/https.md</code>`
  }).</p>
${addressField(manifestUrl, "Or paste this address into Stremio's add-on search:")}
<p class="hint">A static export: search is not available, and the programme guide is as fresh as the last export.</p>
${publicUrl === undefined ? html`<script nonce="${nonce}">${new SafeHtml(LOCATE_SCRIPT)}</script>` : ''}`;
  return layout(manifest, nonce, manifest.name, body);
}
