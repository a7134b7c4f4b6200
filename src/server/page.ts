import type { Manifest } from '../protocol/manifest.js';
import { html, SafeHtml } from './html.js';

/** Security headers for every HTML page: no inline script but ours (by nonce), no framing, no sniffing. */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      "style-src 'unsafe-inline'",
      'img-src https: http: data:',
      `script-src 'nonce-${nonce}'`,
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const STYLE = `
:root { color-scheme: light dark; --accent: #7b5bf5; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: flex; justify-content: center; background: Canvas; color: CanvasText; }
main { width: min(40rem, 100% - 2rem); padding: 2rem 0 4rem; }
header { display: flex; gap: 1rem; align-items: center; }
header img { width: 4rem; height: 4rem; border-radius: .75rem; object-fit: contain; }
h1 { margin: 0; font-size: 1.6rem; } .version { opacity: .7; font-size: .9rem; }
.lead { line-height: 1.5; }
ul.catalogs { padding-left: 1.2rem; line-height: 1.6; }
.button { display: inline-block; padding: .8rem 1.4rem; border-radius: .6rem; background: var(--accent); color: #fff;
  text-decoration: none; font-weight: 600; border: 0; font-size: 1rem; cursor: pointer; }
.button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.copy { display: flex; gap: .5rem; margin: .75rem 0; } .copy input { flex: 1; min-width: 0; }
form { display: grid; gap: 1.1rem; margin: 1.5rem 0; }
.field { display: grid; gap: .35rem; } .field.checkbox { grid-template-columns: auto 1fr; align-items: center; }
label { font-weight: 600; } .hint { font-size: .85rem; opacity: .75; }
input[type=text], input[type=number], input[type=password], select, .copy input { font: inherit; padding: .55rem .7rem;
  border: 1px solid color-mix(in srgb, CanvasText 30%, transparent); border-radius: .45rem; background: Field; color: FieldText; }
.errors { border-left: 4px solid #d33; padding: .5rem 1rem; background: color-mix(in srgb, #d33 12%, transparent); }
.result { border-left: 4px solid var(--accent); padding: .5rem 1rem; }
`;

const COPY_SCRIPT = `for (const b of document.querySelectorAll('[data-copy]')) b.addEventListener('click', () => {
  const input = document.getElementById(b.dataset.copy); input.select();
  (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject()).catch(() => document.execCommand('copy'));
  b.textContent = 'Copied'; setTimeout(() => { b.textContent = 'Copy'; }, 1500);
});`;

/** The frame shared by the landing and configure pages. */
export function layout(manifest: Manifest, nonce: string, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main>
<header>
${manifest.logo ? html`<img src="${manifest.logo}" alt="">` : ''}
<div><h1>${manifest.name}</h1><div class="version">version ${manifest.version}</div></div>
</header>
${body}
</main>
<script nonce="${nonce}">${new SafeHtml(COPY_SCRIPT)}</script>
</body>
</html>`.value;
}

/** The install link and a copyable https manifest URL. */
export function installBlock(manifestUrl: string): SafeHtml {
  const stremioUrl = manifestUrl.replace(/^https?:\/\//, 'stremio://');
  return html`<p><a class="button" href="${stremioUrl}">Install in Stremio</a></p>
<label for="manifest-url">Or paste this address into Stremio's add-on search:</label>
<div class="copy"><input id="manifest-url" type="text" readonly value="${manifestUrl}">
<button type="button" class="button" data-copy="manifest-url">Copy</button></div>`;
}
