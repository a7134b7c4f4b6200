/**
 * The add-on's front page (at `/`, and at the top of `/configure` for a configurable add-on):
 * what it is, how to install it (button, Stremio Web, address, QR code), a few posters of each
 * catalog and, for a guide, what is on now. Everything is rendered on the server (the QR code as
 * inline SVG), so the page needs no script beyond the copy button and keeps the strict CSP.
 */
import { renderSVG } from 'uqr';
import type { Addon } from '../addon/create-addon.js';
import type { Catalog } from '../protocol/catalog.js';
import { html, SafeHtml } from './html.js';
import { isPageUrl } from './page.js';

/** Catalogs shown, posters per catalog, channels in the "Now on" strip: a glance, not a browser. */
const MAX_CATALOGS = 8;
const POSTERS_PER_CATALOG = 8;
const MAX_NOW_ON = 12;

export interface FrontPoster {
  readonly name: string;
  readonly poster: string;
}

export interface FrontCatalog {
  readonly name: string;
  readonly type: string;
  readonly posters: readonly FrontPoster[];
}

export interface NowOn {
  readonly channel: string;
  readonly logo?: string;
  readonly title: string;
  /** 0–100: how far through the programme now is. */
  readonly progress: number;
  readonly start: string;
  readonly end: string;
}

export interface FrontData {
  readonly catalogs: readonly FrontCatalog[];
  readonly nowOn: readonly NowOn[];
}

type Item = { name?: unknown; poster?: unknown; logo?: unknown; videos?: unknown };
type Programme = { startTime?: unknown; endTime?: unknown; title?: unknown; name?: unknown };

/** What a catalog's first page answers, through the add-on's own handlers (with the default settings). */
async function firstPage(addon: Addon, catalog: Catalog, extra: [string, string][] = []): Promise<Item[]> {
  try {
    const answer = await addon.handle({ resource: 'catalog', type: catalog.type, id: catalog.id, extra });
    if (answer.status !== 200) return [];
    const list = answer.body.metas ?? answer.body.metasDetailed;
    return Array.isArray(list) ? (list as Item[]) : [];
  } catch {
    // A catalog that fails is left off the front page; its own requests report the failure.
    return [];
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** An image URL a page may show: http(s), or an inline `data:image/` (an <img> never runs it). */
const image = (value: unknown): string | undefined => {
  const url = text(value);
  return url !== undefined && (isPageUrl(url) || /^data:image\//i.test(url)) ? url : undefined;
};

/** The catalogs with a few posters each, and what is on now on the guide's channels. */
export async function frontPageData(addon: Addon, now: number = Date.now()): Promise<FrontData> {
  const catalogs: FrontCatalog[] = [];
  let nowOn: NowOn[] = [];
  const guide = addon.manifest.catalogs.find((c) => c.type === 'tv' && (c.extra ?? []).some((e) => e.name === 'date'));
  if (guide) {
    const day = new Date(now).toISOString().slice(0, 10);
    nowOn = (await firstPage(addon, guide, [['date', day]]))
      .map((channel) => nowOnChannel(channel, now))
      .filter((n): n is NowOn => n !== undefined)
      .slice(0, MAX_NOW_ON);
  }
  // The guide's channels are in the "Now on" strip already, when anything is on.
  const browsable = addon.manifest.catalogs.filter(
    (c) => !(c.extra ?? []).some((e) => e.isRequired) && !(c === guide && nowOn.length > 0),
  );
  for (const catalog of browsable.slice(0, MAX_CATALOGS)) {
    const items = await firstPage(addon, catalog);
    const posters = items
      .map((item) => ({ name: text(item.name), poster: image(item.poster) ?? image(item.logo) }))
      .filter((p): p is FrontPoster => p.name !== undefined && p.poster !== undefined)
      .slice(0, POSTERS_PER_CATALOG);
    catalogs.push({ name: catalog.name || catalog.id, type: catalog.type, posters });
  }
  return { catalogs, nowOn };
}

function nowOnChannel(channel: Item, now: number): NowOn | undefined {
  const name = text(channel.name);
  if (name === undefined || !Array.isArray(channel.videos)) return undefined;
  for (const p of channel.videos as Programme[]) {
    const start = Date.parse(String(p.startTime));
    const end = Date.parse(String(p.endTime));
    if (!(start <= now && now < end)) continue;
    const logo = image(channel.logo) ?? image(channel.poster);
    return {
      channel: name,
      ...(logo ? { logo } : {}),
      title: text(p.title) ?? text(p.name) ?? name,
      progress: Math.round(((now - start) / (end - start)) * 100),
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
    };
  }
  return undefined;
}

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

const hhmm = (iso: string) => iso.slice(11, 16);

/**
 * The install section: the stremio:// button, Stremio Web, the copyable address and its QR code.
 * The QR code holds the install link, for a phone with Stremio.
 */
export function installSection(manifestUrl: string): SafeHtml {
  const stremioUrl = manifestUrl.replace(/^https?:\/\//, 'stremio://');
  return html`<section class="install" aria-label="Install">
<div class="install-actions">
<p class="buttons"><a class="button" href="${stremioUrl}">Install in Stremio</a>
<a class="button secondary" href="${stremioWebLink(manifestUrl)}" rel="noreferrer" target="_blank">Open in Stremio Web</a></p>
<label for="manifest-url">Or paste this address into Stremio's add-on search:</label>
<div class="copy"><input id="manifest-url" type="text" readonly value="${manifestUrl}">
<button type="button" class="button" data-copy="manifest-url">Copy</button></div>
</div>
<figure class="qr">${qrSvg(stremioUrl)}<figcaption>Scan to install on a phone with Stremio</figcaption></figure>
</section>`;
}

/** The catalogs with their posters, and the "Now on" strip of a guide. */
export function contentSection(data: FrontData): SafeHtml {
  const nowOn =
    data.nowOn.length > 0
      ? html`<section class="now-on"><h2>Now on</h2><ul>${data.nowOn.map(
          (
            n,
          ) => html`<li>${n.logo ? html`<img src="${n.logo}" alt="" loading="lazy">` : ''}<div><strong>${n.channel}</strong>
<span class="programme">${n.title}</span>
<progress max="100" value="${n.progress}" aria-label="${n.progress}% of ${n.title} (${hhmm(n.start)}–${hhmm(n.end)} UTC)">${n.progress}%</progress>
<span class="hint">${hhmm(n.start)}–${hhmm(n.end)} UTC</span></div></li>`,
        )}</ul></section>`
      : '';
  const catalogs =
    data.catalogs.length > 0
      ? html`<section class="catalogs"><h2>Catalogs</h2>${data.catalogs.map(
          (c) =>
            html`<h3>${c.name} <span class="hint">(${c.type})</span></h3>${
              c.posters.length > 0
                ? html`<ul class="posters">${c.posters.map(
                    (p) => html`<li><img src="${p.poster}" alt="" loading="lazy"><span>${p.name}</span></li>`,
                  )}</ul>`
                : ''
            }`,
        )}</section>`
      : '';
  return html`${nowOn}${catalogs}`;
}
