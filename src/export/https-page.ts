import { randomBytes } from 'node:crypto';
import type { Manifest } from '../protocol/index.js';
import { guideContent, guidePageHtml } from '../server/guide-page.js';
import { type StaticPage, staticPage } from './static-page.js';

/** The HTTPS guide's file in an export, beside `index.html`, which links it relatively. */
export const HTTPS_GUIDE_FILE = 'https.html';

/**
 * Marquee's HTTPS guide (docs/https.md, as Markdown) as a static page of the export, in the
 * frame of its landing page and with the same policy; its link back is the landing page.
 *
 * @example httpsGuidePage(manifest, readFileSync('docs/https.md', 'utf8')).html // '<!doctype html>…'
 */
export function httpsGuidePage(manifest: Manifest, markdown: string): StaticPage {
  return staticPage(guidePageHtml(manifest, randomBytes(12).toString('base64'), guideContent(markdown), 'index.html'));
}
