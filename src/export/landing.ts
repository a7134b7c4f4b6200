import { randomBytes } from 'node:crypto';
import type { Manifest } from '../protocol/index.js';
import { html, SafeHtml } from '../server/html.js';
import { addonSummary, layout } from '../server/page.js';

/**
 * `index.html` of a static export: the add-on's name, catalogs and install address, in the same
 * frame as the live server's landing page. The export does not know where it will be hosted, so
 * without `publicUrl` a small script fills the address in from the page's own location.
 */

/** Sets the install link and address from the page's own URL (the export's root). */
const LOCATE_SCRIPT = `const url = new URL('manifest.json', location.href).href;
document.getElementById('manifest-url').value = url;
document.getElementById('install').href = url.replace(/^https?:\\/\\//, 'stremio://');`;

/**
 * The landing page; every manifest string is escaped.
 *
 * @example landingHtml(manifest, 'https://example.org/addon') // '<!doctype html>…'
 */
export function landingHtml(manifest: Manifest, publicUrl?: string): string {
  const manifestUrl = publicUrl === undefined ? 'manifest.json' : `${publicUrl.replace(/\/+$/, '')}/manifest.json`;
  const stremioUrl = manifestUrl.replace(/^https?:\/\//, 'stremio://');
  const nonce = randomBytes(12).toString('base64');
  const body = html`
${addonSummary(manifest)}
<p><a class="button" id="install" href="${stremioUrl}">Install in Stremio</a></p>
<label for="manifest-url">Or paste this address into Stremio's add-on search:</label>
<div class="copy"><input id="manifest-url" type="text" readonly value="${manifestUrl}">
<button type="button" class="button" data-copy="manifest-url">Copy</button></div>
<p class="hint">A static export: search is not available, and the programme guide is as fresh as the last export.</p>
${publicUrl === undefined ? html`<script nonce="${nonce}">${new SafeHtml(LOCATE_SCRIPT)}</script>` : ''}`;
  return layout(manifest, nonce, manifest.name, body);
}
