/**
 * The add-on's front page (at `/`, and at the top of `/configure` for a configurable add-on):
 * what it is, how to install it (install.ts), a few posters of each catalog and, for a guide,
 * what is on now. Everything is rendered on the server, so the page needs no script beyond the
 * copy button and keeps the strict CSP.
 */
import type { AnyAddon } from '../addon/create-addon.js';
import type { Catalog } from '../protocol/catalog.js';
import { html, type SafeHtml } from './html.js';
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
async function firstPage(addon: AnyAddon, catalog: Catalog, extra: [string, string][] = []): Promise<Item[]> {
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
export async function frontPageData(addon: AnyAddon, now: number = Date.now()): Promise<FrontData> {
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

const hhmm = (iso: string) => iso.slice(11, 16);

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
  // A catalog with nothing to show (empty, or items without images) gets no heading of its own.
  const shown = data.catalogs.filter((c) => c.posters.length > 0);
  const catalogs =
    shown.length > 0
      ? html`<section class="catalogs"><h2>Catalogs</h2>${shown.map(
          (c) =>
            html`<h3>${c.name} <span class="hint">(${c.type})</span></h3><ul class="posters">${c.posters.map(
              (p) => html`<li><img src="${p.poster}" alt="" loading="lazy"><span>${p.name}</span></li>`,
            )}</ul>`,
        )}</section>`
      : '';
  return html`${nowOn}${catalogs}`;
}
