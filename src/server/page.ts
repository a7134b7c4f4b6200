import { base64 } from '../addon/bytes.js';
import { MarqueeError } from '../errors.js';
import type { Manifest } from '../protocol/manifest.js';
import { html, SafeHtml } from './html.js';

/**
 * The Content-Security-Policy of every page: no inline script but ours (`scripts`: the page's
 * nonce, or the hashes of a static page's scripts), no framing, no other origin's code.
 *
 * @example pagePolicy("'nonce-abc'") // "default-src 'none'; …; script-src 'nonce-abc'; …"
 */
export function pagePolicy(scripts: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src https: http: data:',
    `script-src ${scripts}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Security headers for every HTML page: no inline script but ours (by nonce), no framing, no
 * sniffing. The referrer policy is `same-origin`: a page's address (a reconfigure page's holds the
 * user's token) never reaches another site, and the page's own form names its origin when it
 * posts (`no-referrer` made browsers send `Origin: null`, which POST /configure must refuse: any
 * site can send it).
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': pagePolicy(`'nonce-${nonce}'`),
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

/**
 * A fresh nonce for a page's Content-Security-Policy (`pageHeaders`) and its inline script: 16
 * random bytes, base64.
 * @example const nonce = pageNonce(); htmlResponse(200, page(nonce), pageHeaders(nonce))
 */
export function pageNonce(): string {
  return base64(crypto.getRandomValues(new Uint8Array(16)));
}

/** An http(s) URL: what a page may link or show (a `javascript:` or `data:` one may not). */
export const isPageUrl = (url: string): boolean => /^https?:\/\/[^\s/?#]/i.test(url);

/**
 * Refuses a manifest whose URL fields that reach a page (`logo`, in the icon link and the header
 * image, and `background`) are not http(s) URLs, naming the field: a server or an export with
 * pages checks it when it is given the add-on.
 *
 * @example checkPageUrls({ logo: 'javascript:alert(1)' }) // throws INVALID_MANIFEST: manifest.logo …
 */
export function checkPageUrls(manifest: { readonly logo?: string; readonly background?: string }): void {
  for (const field of ['logo', 'background'] as const) {
    const value = manifest[field];
    if (value !== undefined && !isPageUrl(value)) {
      throw new MarqueeError(
        'INVALID_MANIFEST',
        `manifest.${field} must be an http(s) URL, as it reaches the landing page, got ${JSON.stringify(value.slice(0, 80))}`,
        { details: { field: `manifest.${field}` } },
      );
    }
  }
}

const STYLE = `
:root { color-scheme: light dark; --accent: #6d4ae8; --accent-text: #fff; --error: #c62828;
  --line: color-mix(in srgb, CanvasText 18%, transparent);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; justify-content: center; align-items: flex-start;
  background: color-mix(in srgb, CanvasText 5%, Canvas); color: CanvasText; }
main { width: min(46rem, 100% - 1.5rem); margin: 1.5rem 0 3rem; padding: clamp(1.25rem, 4vw, 2.25rem);
  background: Canvas; border: 1px solid var(--line); border-radius: 1rem; box-shadow: 0 .5rem 2rem rgb(0 0 0 / 6%); }
header { display: flex; gap: 1rem; align-items: center; }
header img { width: 4rem; height: 4rem; flex: none; border-radius: .9rem; object-fit: contain; }
h1 { margin: 0; font-size: 1.6rem; line-height: 1.2; overflow-wrap: anywhere; }
h2 { margin: 0 0 .25rem; font-size: 1.2rem; }
.version { opacity: .7; font-size: .9rem; }
.lead { margin: 1rem 0 1.5rem; overflow-wrap: anywhere; }
ul.catalogs { padding-left: 1.2rem; line-height: 1.6; }
a { color: var(--accent); }
.button { display: inline-block; padding: .75rem 1.3rem; border-radius: .6rem; background: var(--accent);
  color: var(--accent-text); text-decoration: none; border: 0; font: inherit; font-weight: 600; cursor: pointer;
  white-space: nowrap; }
.button:hover { filter: brightness(1.1); }
.button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px; }
.copy { display: flex; gap: .5rem; margin: .5rem 0 0; } .copy input { flex: 1; min-width: 0; }
form { display: grid; gap: 1.1rem; margin: 1.5rem 0 0; padding-top: 1.5rem; border-top: 1px solid var(--line); }
form > .hint { margin: -.75rem 0 0; }
.field { display: grid; gap: .35rem; }
.field.checkbox { grid-template-columns: auto 1fr; align-items: center; column-gap: .6rem; }
.field.checkbox .field-error { grid-column: 1 / -1; }
input[type=checkbox] { width: 1.25rem; height: 1.25rem; margin: 0; accent-color: var(--accent); }
label { font-weight: 600; } .hint { font-size: .85rem; opacity: .75; }
input[type=text], input[type=number], input[type=password], select { width: 100%; font: inherit;
  padding: .6rem .75rem; border: 1px solid color-mix(in srgb, CanvasText 30%, transparent); border-radius: .5rem;
  background: Field; color: FieldText; }
.invalid input, .invalid select, input[aria-invalid=true] { border-color: var(--error); border-width: 2px; }
.field-error { color: var(--error); font-size: .9rem; font-weight: 600; }
.errors { border-left: 4px solid var(--error); border-radius: .4rem; padding: .25rem 1rem;
  background: color-mix(in srgb, var(--error) 10%, transparent); }
.errors ul { padding-left: 1.2rem; } .errors a { color: inherit; }
.result { margin: 0 0 1.5rem; padding: 1.1rem 1.25rem; border-radius: .75rem;
  background: color-mix(in srgb, var(--accent) 10%, transparent); border: 1px solid color-mix(in srgb, var(--accent) 35%, transparent); }
.result label { display: block; margin-top: 1rem; font-size: .9rem; }
.buttons { display: flex; flex-wrap: wrap; gap: .6rem; margin: 0 0 1rem; }
.button.secondary { background: transparent; color: var(--accent); box-shadow: inset 0 0 0 2px var(--accent); }
.install { display: grid; grid-template-columns: 1fr auto; gap: 1.25rem; align-items: start; margin: 0 0 1rem; }
.install label { display: block; font-size: .9rem; }
.install .why { margin: .75rem 0 0; } .needs-https { grid-template-columns: 1fr; padding-left: 1rem; border-left: 4px solid var(--accent); }
code { font-size: .9em; padding: 0 .25em; border-radius: .25rem; background: color-mix(in srgb, CanvasText 8%, transparent); overflow-wrap: anywhere; }
.qr { margin: 0; width: 8.5rem; text-align: center; } .qr svg { width: 100%; height: auto; display: block; border-radius: .4rem; }
.qr figcaption { font-size: .75rem; opacity: .75; margin-top: .3rem; }
h3 { margin: 1.1rem 0 .5rem; font-size: 1rem; }
.posters { display: flex; gap: .6rem; overflow-x: auto; list-style: none; margin: 0; padding: 0 0 .4rem; }
.posters li { flex: none; width: 5.6rem; font-size: .75rem; line-height: 1.25; }
.posters img { display: block; width: 100%; aspect-ratio: 2 / 3; object-fit: cover; border-radius: .45rem;
  background: color-mix(in srgb, CanvasText 10%, transparent); margin-bottom: .25rem; }
.posters span { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.now-on ul { list-style: none; padding: 0; margin: 0; display: grid; gap: .5rem;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
.now-on li { display: flex; gap: .6rem; align-items: center; padding: .5rem .6rem; border: 1px solid var(--line); border-radius: .6rem; }
.now-on img { width: 2.6rem; height: 2.6rem; object-fit: contain; flex: none; border-radius: .3rem; }
.now-on li > div { display: grid; min-width: 0; flex: 1; }
.now-on .programme { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.now-on progress { width: 100%; height: .4rem; accent-color: var(--accent); }
.back { margin: .75rem 0 0; font-size: .9rem; }
.guide h2 { margin: 1.5rem 0 .5rem; } .guide h3 { margin: 1.75rem 0 .5rem; font-size: 1.1rem; } .guide h4 { margin: 1.25rem 0 .4rem; }
.guide pre { overflow-x: auto; padding: .75rem 1rem; border-radius: .5rem; font-size: .85rem; line-height: 1.4;
  background: color-mix(in srgb, CanvasText 8%, transparent); tab-size: 4; }
.guide pre code { padding: 0; background: none; overflow-wrap: normal; font-size: inherit; }
.guide table { display: block; overflow-x: auto; border-collapse: collapse; margin: 1rem 0; font-size: .9rem; }
.guide th, .guide td { border: 1px solid var(--line); padding: .4rem .6rem; text-align: left; vertical-align: top; }
@media (max-width: 30rem) { .copy { flex-direction: column; } .install { grid-template-columns: 1fr; } .qr { justify-self: center; } }
@media (prefers-color-scheme: dark) { :root { --accent: #9b84ff; --accent-text: #14102a; --error: #ff8a80; } }
`;

const COPY_SCRIPT = `for (const b of document.querySelectorAll('[data-copy]')) b.addEventListener('click', () => {
  const input = document.getElementById(b.dataset.copy); input.select();
  (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject()).catch(() => document.execCommand('copy'));
  b.textContent = 'Copied'; setTimeout(() => { b.textContent = 'Copy'; }, 1500);
});`;

/** The frame shared by the landing, configure and guide pages. */
export function layout(manifest: Manifest, nonce: string, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="icon" href="${manifest.logo !== undefined && isPageUrl(manifest.logo) ? manifest.logo : 'data:,'}">
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main>
<header>
${manifest.logo && isPageUrl(manifest.logo) ? html`<img src="${manifest.logo}" alt="">` : ''}
<div><h1>${manifest.name}</h1><div class="version">version ${manifest.version}</div></div>
</header>
${body}
</main>
<script nonce="${nonce}">${new SafeHtml(COPY_SCRIPT)}</script>
</body>
</html>`.value;
}

/** What the add-on is: description, types and catalogs (landing page and export index). */
export function addonSummary(manifest: Manifest): SafeHtml {
  return html`<p class="lead">${manifest.description}</p>
<p><strong>Types:</strong> ${manifest.types.join(', ')}</p>
${
  manifest.catalogs.length > 0
    ? html`<h2>Catalogs</h2><ul class="catalogs">${manifest.catalogs.map(
        (c) => html`<li>${c.name || c.id} <span class="hint">(${c.type})</span></li>`,
      )}</ul>`
    : ''
}`;
}
