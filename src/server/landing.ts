import type { Manifest } from '../protocol/manifest.js';
import { html } from './html.js';
import { addonSummary, installBlock, layout } from './page.js';

/** The landing page at `/`: what the add-on is and how to install it. Every string is escaped. */
export function landingPage(manifest: Manifest, baseUrl: string, nonce: string): string {
  const needsConfig = manifest.behaviorHints?.configurationRequired === true;
  const configurable = (manifest.config?.length ?? 0) > 0;
  const body = html`
${addonSummary(manifest)}
${
  needsConfig
    ? html`<p>This add-on needs a few settings first.</p><p><a class="button" href="${baseUrl}/configure">Configure</a></p>`
    : html`${installBlock(`${baseUrl}/manifest.json`)}${
        configurable ? html`<p><a href="${baseUrl}/configure">Configure before installing</a></p>` : ''
      }`
}`;
  return layout(manifest, nonce, manifest.name, body);
}
