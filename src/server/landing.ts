import type { Manifest } from '../protocol/manifest.js';
import { contentSection, type FrontData } from './front.js';
import { html } from './html.js';
import { installSection } from './install.js';
import { layout } from './page.js';

/**
 * The front page at `/`: what the add-on is, how to install it (linking the HTTPS guide at
 * `guideUrl` over plain HTTP, when the server serves it), a few posters of each catalog and what
 * is on now, and the server's notes (the relay is on). Every string is escaped.
 */
export function landingPage(
  manifest: Manifest,
  baseUrl: string,
  nonce: string,
  data: FrontData,
  guideUrl?: string,
  notes: readonly string[] = [],
): string {
  const needsConfig = manifest.behaviorHints?.configurationRequired === true;
  const configurable = (manifest.config?.length ?? 0) > 0;
  const body = html`
<p class="lead">${manifest.description}</p>
${notes.map((note) => html`<p class="note">${note}</p>`)}
${
  needsConfig
    ? html`<p>This add-on needs a few settings first.</p><p><a class="button" href="${baseUrl}/configure">Configure</a></p>`
    : html`${installSection(`${baseUrl}/manifest.json`, guideUrl)}${
        configurable ? html`<p><a href="${baseUrl}/configure">Choose your settings before installing</a></p>` : ''
      }`
}
${contentSection(data)}`;
  return layout(manifest, nonce, manifest.name, body);
}
