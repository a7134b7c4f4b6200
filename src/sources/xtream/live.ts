/**
 * An account's live channels: its categories and live streams, kept as a compact snapshot (the
 * source's copy: JSON, no credentials) and turned into playlist records, so the live-TV import
 * treats an account like a playlist: grouping, ids, guide matching on `epg_channel_id`, backup
 * streams and the per-source last-good rule all apply unchanged.
 */
import { cutText, DEFAULT_ENTRY_LIMITS, type EntryLimits, nameCut, tooManyEntries } from '../entry-limits.js';
import type { Playlist, PlaylistEntry, SourceWarning } from '../records.js';
import type { XtreamAccount } from './account.js';
import type { XtreamServer } from './auth.js';
import { TextBlocks } from './blocks.js';
import type { XtreamClient } from './client.js';
import type { GuideChannels } from './guide.js';
import type { JsonRoot } from './json-stream.js';
import { scanSnapshot } from './live-snapshot.js';
import { MAX_SHORT_EPG_CHANNELS } from './short-epg.js';
import { httpUrl, id, list, num, obj, str } from './values.js';

/** One live stream as kept in the snapshot (short keys: 50,000 of them make the copy). */
export interface LiveStream {
  /** stream_id */
  readonly i: string;
  /** name */
  readonly n: string;
  /** epg_channel_id */
  readonly e?: string;
  /** stream_icon */
  readonly l?: string;
  /** category_id */
  readonly c?: string;
  /** num */
  readonly h?: number;
  /** tv_archive_duration in days, when tv_archive is on */
  readonly a?: number;
}

export interface LiveSnapshot {
  readonly format: 'marquee-xtream-live/1';
  readonly formats: readonly ('m3u8' | 'ts')[];
  readonly timezone?: string;
  /** category_id → category_name */
  readonly categories: Readonly<Record<string, string>>;
  readonly streams: readonly LiveStream[];
  /** What was odd in the answers, said again when the snapshot is read. */
  readonly warnings: readonly string[];
}

/** At most this many warnings of one kind are listed; the rest are counted in one line. */
const LISTED = 20;
/** Characters of an EPG channel id kept (an id, never shown: not a name). */
const MAX_EPG_ID = 200;

/** The limits of an account's live streams (entry-limits.ts): entries, and the length of names. */
export type LiveLimits = Pick<EntryLimits, 'maxEntries' | 'maxNameLength'>;

/**
 * Reads the categories and live streams of the account, as the text of its snapshot (LiveSnapshot
 * as JSON: what the import parses and keeps as the source's copy). Each stream is written out
 * compact as soon as it is read, into byte blocks off the JS heap: what one import holds while
 * the list arrives is about a third of the list's bytes, whatever its shape, and the list itself
 * stops at its cap (limitsFor 'api-list') or once its streams make more than `maxEntries` entries
 * (each stream is one entry per output format, as the playlist made of it has), before the
 * entries past it are kept. Names longer than `maxNameLength` are cut, with a warning.
 * @example const text = await readLive(client, await checkAccount(client))
 */
export async function readLive(
  client: XtreamClient,
  server: XtreamServer,
  limits: LiveLimits = DEFAULT_ENTRY_LIMITS,
): Promise<string> {
  const warnings: string[] = [];
  const formats = Math.max(1, server.liveFormats.length);
  const maxStreams = Math.floor(limits.maxEntries / formats);
  let categories = await readCategories(client, 'get_live_categories', warnings, limits.maxNameLength);
  const streams = new TextBlocks();
  const seen = new Set<string>();
  /** Streams per category id, to tell how many name a category the panel does not list. */
  const perCategory = new Map<string, number>();
  const odd = new Tally();
  let root: JsonRoot | undefined;
  let index = 0;
  for await (const element of client.list('get_live_streams', (r) => (root = r))) {
    const at = index++;
    const s = obj(element);
    const streamId = id(s?.stream_id);
    let name = str(s?.name, Number.POSITIVE_INFINITY);
    if (s === undefined || streamId === undefined || name === undefined) {
      odd.add(
        'incomplete',
        `get_live_streams[${at}] has no ${s === undefined ? 'object' : streamId === undefined ? 'stream_id' : 'name'}; skipped`,
      );
      continue;
    }
    if (seen.has(streamId)) {
      odd.add('duplicate', `get_live_streams[${at}]: stream_id ${streamId} is listed twice; the second is skipped`);
      continue;
    }
    if (seen.size >= maxStreams) {
      throw tooManyEntries(`${client.account.label}: get_live_streams`, limits.maxEntries, 'entries', {
        note: `${maxStreams + 1} live streams read, each an entry per output format (${formats})`,
      });
    }
    seen.add(streamId);
    if (name.length > limits.maxNameLength) {
      odd.add('long-name', `get_live_streams[${at}]: ${nameCut('name', name.length, limits.maxNameLength)}`);
      name = cutText(name, limits.maxNameLength);
    }
    const epg = str(s.epg_channel_id, MAX_EPG_ID);
    const logo = httpUrl(s.stream_icon);
    const category = id(s.category_id);
    const number = num(s.num);
    const archive = num(s.tv_archive) === 1 ? num(s.tv_archive_duration) : undefined;
    if (category !== undefined) perCategory.set(category, (perCategory.get(category) ?? 0) + 1);
    const stream: LiveStream = {
      i: streamId,
      n: name,
      ...(epg !== undefined ? { e: epg } : {}),
      ...(logo !== undefined ? { l: logo } : {}),
      ...(category !== undefined ? { c: category } : {}),
      ...(number !== undefined && number > 0 && number < 1e9 ? { h: number } : {}),
      ...(archive !== undefined && archive > 0 ? { a: Math.min(Math.round(archive), 365) } : {}),
    };
    streams.write(`${seen.size > 1 ? ',' : ''}${JSON.stringify(stream)}`);
  }
  if (root === 'null') warnings.push('get_live_streams answered null instead of a list');
  // Categories can change between two calls: one unknown id, and they are asked once more.
  const unknown = () => [...perCategory.keys()].filter((c) => categories[c] === undefined);
  if (unknown().length > 0) {
    const again = await readCategories(client, 'get_live_categories', [], limits.maxNameLength).catch(() => ({}));
    categories = { ...categories, ...again };
    const still = unknown();
    if (still.length > 0) {
      const count = still.reduce((sum, c) => sum + (perCategory.get(c) ?? 0), 0);
      warnings.push(
        `${count} live streams name categories the panel does not list (${still.slice(0, 5).join(', ')}); they have no group`,
      );
    }
  }
  warnings.push(...odd.lines());
  const head = JSON.stringify({
    format: 'marquee-xtream-live/1',
    formats: server.liveFormats,
    ...(server.timezone !== undefined ? { timezone: server.timezone } : {}),
    categories,
  });
  // `{...,"categories":{...}` + `,"streams":[` + the streams + `],"warnings":[...]}`: a LiveSnapshot.
  return streams.joined(`${head.slice(0, -1)},"streams":[`, `],"warnings":${JSON.stringify(warnings)}}`);
}

/**
 * Category id → name of one `get_*_categories` answer; a broken answer is a warning, not a
 * failure. A name longer than `maxName` is cut, with a warning.
 */
export async function readCategories(
  client: XtreamClient,
  action: string,
  warnings: string[],
  maxName: number = DEFAULT_ENTRY_LIMITS.maxNameLength,
): Promise<Record<string, string>> {
  let answer: unknown;
  try {
    answer = await client.call(action);
  } catch (error) {
    warnings.push(`${action} failed (${(error as Error).message.replace(/^.*?: /, '')}); items have no category`);
    return {};
  }
  if (answer === null || (typeof answer !== 'object' && answer !== undefined)) {
    warnings.push(`${action} answered ${answer === null ? 'null' : typeof answer} instead of a list`);
    return {};
  }
  const categories: Record<string, string> = {};
  let cut = 0;
  for (const element of list(answer)) {
    const c = obj(element);
    const key = id(c?.category_id);
    const name = str(c?.category_name, Number.POSITIVE_INFINITY);
    if (key === undefined || name === undefined || categories[key] !== undefined) continue;
    if (name.length > maxName && cut++ < LISTED)
      warnings.push(`${action}: category ${key}: ${nameCut('its name', name.length, maxName)}`);
    categories[key] = cutText(name, maxName);
  }
  if (cut > LISTED) warnings.push(`${cut - LISTED} more category names cut like the above`);
  return categories;
}

/** Which categories of an account to keep (settings `includeCategories`, `excludeCategories`). */
export interface CategoryFilter {
  readonly includeCategories?: readonly string[];
  readonly excludeCategories?: readonly string[];
}

/** Does the filter keep an item of category `name` (undefined: none known)? */
export function keepsCategory(filter: CategoryFilter, name: string | undefined): boolean {
  if (filter.includeCategories?.length && !filter.includeCategories.includes(name ?? '')) return false;
  return !filter.excludeCategories?.includes(name ?? '');
}

/** The attributes of every entry of an account (a playlist's EXTINF attributes): none, one object for all. */
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The playlist of a live snapshot's text: one entry per stream and allowed output format (HLS
 * first), `epg_channel_id` as tvg-id, the category as group, catch-up as playlist catch-up
 * attributes (`catchup="default"` with the panel's `/timeshift/` URL as `catchup-source`). With
 * it, what the account's guide needs of its channels if `xmltv.php` fails: the first channels
 * `get_short_epg` would be asked for, not every stream (a snapshot's streams are not kept past
 * this call: 300,000 of them were held through the whole import). Its streams were counted as
 * they were read (readLive), and a last good copy is taken whole, as a playlist's copy is.
 * @example const { playlist } = livePlaylist(text, account, {}, 'xtream me…@tv.example')
 */
export function livePlaylist(
  text: string,
  account: XtreamAccount,
  filter: CategoryFilter,
  label: string,
): { playlist: Playlist; guide: GuideChannels } {
  const snapshot = scanSnapshot(text, label);
  const warnings: SourceWarning[] = snapshot.warnings.map((message) => ({ source: label, message }));
  const entries: PlaylistEntry[] = [];
  // streamUrl's, as one flat string each: built from parts, a URL was a tree of them per entry.
  const seg = encodeURIComponent;
  const liveBase = `${account.base}/live/${seg(account.username)}/${seg(account.password)}/`;
  const guideStreams = new Map<string, LiveStream>();
  const guideKeys = new Set<string>();
  let line = 0;
  for (const s of snapshot.streams) {
    line++;
    const group = s.c !== undefined ? snapshot.categories[s.c] : undefined;
    if (!keepsCategory(filter, group)) continue;
    const guideKey = s.e ?? `xc-${s.i}`;
    guideKeys.add(guideKey);
    if (guideStreams.size < MAX_SHORT_EPG_CHANNELS && !guideStreams.has(guideKey)) guideStreams.set(guideKey, s);
    // Catch-up in the playlist's own terms (docs/catchup.md): the panel's timeshift URL, its
    // archive days, and its time zone, in which the panel reads the start.
    const catchup =
      s.a !== undefined
        ? {
            catchup: 'default',
            'catchup-days': String(s.a),
            'catchup-source': timeshiftTemplate(account, s.i),
            ...(snapshot.timezone !== undefined ? { 'catchup-timezone': snapshot.timezone } : {}),
          }
        : undefined;
    for (const format of snapshot.formats) {
      entries.push({
        line,
        name: s.n,
        url: [liveBase, seg(s.i), '.', format].join(''),
        ...(s.e !== undefined ? { tvgId: s.e } : {}),
        ...(s.l !== undefined ? { tvgLogo: s.l } : {}),
        ...(group !== undefined ? { group } : {}),
        ...(s.h !== undefined ? { channelNumber: s.h } : {}),
        ...(catchup !== undefined ? { catchup } : {}),
        attributes: NO_ATTRIBUTES,
      });
    }
  }
  const guide: GuideChannels = {
    streams: [...guideStreams.values()],
    channels: guideKeys.size,
    ...(snapshot.timezone !== undefined ? { timezone: snapshot.timezone } : {}),
  };
  return { playlist: { header: { guideUrls: [], attributes: {} }, entries, warnings }, guide };
}

/**
 * The panel's timeshift URL of live stream `id`: the programme's length in minutes and its start
 * on the panel's clock (`server_info.timezone`), as catch-up placeholders.
 * @example timeshiftTemplate(account, '7') // 'http://tv.example/timeshift/u/p/{duration:60}/{Y}-{m}-{d}:{H}-{M}/7.ts'
 */
export function timeshiftTemplate(account: XtreamAccount, id: string): string {
  const seg = (s: string) => encodeURIComponent(s);
  return `${account.base}/timeshift/${seg(account.username)}/${seg(account.password)}/{duration:60}/{Y}-{m}-{d}:{H}-{M}/${seg(id)}.ts`;
}

/** Problems of one kind: the first few listed, the rest counted. */
export class Tally {
  readonly #lines = new Map<string, { listed: string[]; more: number }>();
  add(kind: string, line: string): void {
    let t = this.#lines.get(kind);
    if (t === undefined) {
      t = { listed: [], more: 0 };
      this.#lines.set(kind, t);
    }
    if (t.listed.length < LISTED) t.listed.push(line);
    else t.more++;
  }
  lines(): string[] {
    return [...this.#lines.values()].flatMap((t) => [
      ...t.listed,
      ...(t.more > 0 ? [`${t.more} more like the above`] : []),
    ]);
  }
}
