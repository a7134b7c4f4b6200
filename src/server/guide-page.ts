/**
 * Marquee's HTTPS guide (docs/https.md) as a page of the add-on itself, so that the install
 * section's "how to serve it over HTTPS" link works wherever the server runs, offline included.
 * The Markdown reaches the core as the `httpsGuide` option (the CLI reads it from the package):
 * the core reads no file.
 */
import type { Manifest } from '../protocol/manifest.js';
import { html, type SafeHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { layout, pageHeaders, pageNonce } from './page.js';
import { htmlResponse } from './respond.js';
import type { CoreResponse } from './types.js';

/**
 * Where the server serves the HTTPS guide, under the add-on's base URL. No protocol route can be
 * this path: resources end in `.json`, and a config segment is always followed by another one
 * (`/{config}/manifest.json`, `/{config}/configure`).
 *
 * @example `${baseUrl}${HTTPS_GUIDE_PATH}` // 'http://192.168.1.5:7000/https'
 */
export const HTTPS_GUIDE_PATH = '/https';

/** The guide rendered once: its title (the first heading) and its body. */
export interface GuideContent {
  readonly title: string;
  readonly body: SafeHtml;
}

/**
 * The guide's Markdown for a page: its headings one level down (the page's `<h1>` is the
 * add-on's name), with GitHub's anchors so its in-page links work.
 *
 * @example guideContent('# HTTPS\n\nSee [Tailscale](#tailscale).').title // 'HTTPS'
 */
export function guideContent(markdown: string): GuideContent {
  const rendered = renderMarkdown(markdown, { headingOffset: 1 });
  return { title: rendered.headings[0]?.text ?? 'Serving it over HTTPS', body: rendered.html };
}

/**
 * The guide in the frame of the add-on's other pages, with a link back to its front page
 * (`frontHref`); every string escaped.
 */
export function guidePageHtml(manifest: Manifest, nonce: string, guide: GuideContent, frontHref: string): string {
  const body = html`<p class="back"><a href="${frontHref}">← ${manifest.name}</a></p>
<article class="guide">${guide.body}</article>`;
  return layout(manifest, nonce, `${guide.title} · ${manifest.name}`, body);
}

/** `GET /https`: the guide page, with the headers (CSP by nonce, no framing) of every page. */
export function guideResponse(manifest: Manifest, guide: GuideContent, baseUrl: string): CoreResponse {
  const nonce = pageNonce();
  return htmlResponse(200, guidePageHtml(manifest, nonce, guide, `${baseUrl}/`), pageHeaders(nonce));
}
