/**
 * Conversions between records and table rows. Texts from sources are clipped to fixed bounds
 * (a 10 MB description must not reach every guide page) and one language is chosen per text,
 * so a programme row stays small and reads need no language logic.
 */
import type { Video } from '../../protocol/index.js';
import { isAbsoluteUrl } from '../../protocol/index.js';
import { cleanName, cleanText } from '../../sources/clean.js';
import type { LangText, Programme } from '../../sources/records.js';
import type { StoredProgramme } from './guide-days.js';
import type { CatchupStream, ChannelRow, ProgrammeRow, StreamRow } from './types.js';

export const LIMITS = {
  key: 500,
  name: 500,
  title: 1_000,
  description: 20_000,
  url: 8_192,
  item: 300,
  items: 50,
} as const;

/** Cuts `text` to `max` UTF-16 units without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

function clipOptional(text: string | undefined, max: number): string | null {
  return text === undefined || text === '' ? null : clip(text, max);
}

/**
 * Lower-case, accents and width variants folded, spaces collapsed: the search form of a name.
 *
 * @example normalizeName('  Télé  ÉTOILE ') === 'tele etoile'
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase() // folds ß to SS before lower-casing, like a case-insensitive compare
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function langMatches(lang: string | undefined, preferred: string): boolean {
  if (lang === undefined) return false;
  const l = lang.toLowerCase();
  return l === preferred || l.startsWith(`${preferred}-`);
}

/** The text in the first preferred language that has one, else the first text. */
export function pickText(texts: readonly LangText[], languages: readonly string[]): string | undefined {
  if (texts.length > 1) {
    for (const preferred of languages) {
      for (const t of texts) if (langMatches(t.lang, preferred)) return t.text;
    }
  }
  return texts[0]?.text;
}

/** The empty list of a programme without categories, ratings, directors or actors: one shared, not one per programme. */
const NONE: readonly never[] = Object.freeze([]);

function pickCategories(texts: readonly LangText[], languages: readonly string[]): readonly string[] {
  if (texts.length === 0) return NONE;
  let chosen = texts;
  for (const preferred of languages) {
    if (texts.some((t) => langMatches(t.lang, preferred))) {
      chosen = texts.filter((t) => t.lang === undefined || langMatches(t.lang, preferred));
      break;
    }
  }
  const out = new Set<string>();
  for (const t of chosen) {
    if (out.size >= LIMITS.items) break;
    if (t.text !== '') out.add(cleanName(clip(t.text, LIMITS.item)));
  }
  return [...out];
}

function clipList(items: readonly string[]): readonly string[] {
  if (items.length === 0) return NONE;
  return items.slice(0, LIMITS.items).map((s) => clip(s, LIMITS.item));
}

const HTTP = /^https?:\/\//i;

/** What a programme shows, one language chosen and every text clipped: the input of its video fields. */
export interface ProgrammeContent {
  readonly title: string;
  readonly subTitle?: string | undefined;
  readonly description?: string | undefined;
  readonly icon?: string | undefined;
  readonly categories: readonly string[];
  readonly season?: number | undefined;
  readonly episode?: number | undefined;
  /** XMLTV `<date>`: only its year is shown. */
  readonly date?: string | undefined;
  readonly ratings: ReadonlyArray<{ readonly system?: string; readonly value: string }>;
  readonly starRating?: string | undefined;
  readonly directors: readonly string[];
  readonly actors: readonly string[];
}

/** A character JSON.stringify writes other than as itself: `"`, `\\`, a control character, a surrogate (lone ones are escaped). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`: the text between quotes when no character of it needs escaping (most
 * guide texts), else JSON.stringify itself. A native regex scan and a concatenation cost a
 * third of JSON.stringify on guide descriptions (rows.test.ts holds them equal).
 */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : quoted(text);
}

/** `JSON.stringify(items)` for an array of strings. */
export function jsonStrings(items: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += i === 0 ? jsonString(items[i]!) : `,${jsonString(items[i]!)}`;
  return `${out}]`;
}

const FOUR_DIGITS = /^\d{4}/;

/**
 * The `video` column: the fields of a programme's guide video that come from the programme
 * alone, as JSON members each with its leading comma (`,"title":"News — Late","genres":["News"]`;
 * empty when there are none). Everything else (`id`, `released`, `startTime`, `endTime`,
 * `runtime`) follows from the channel and the times and is added when read. It is the only copy
 * of what a programme shows: guide pages splice it in as bytes, other reads parse it
 * (`programmeFromRaw`). Written as text directly: an import renders hundreds of thousands.
 *
 * The sub-title joins the title (`Title — Sub`): the grid shows only the title, and an
 * episode's name is what tells two airings apart. An untitled programme shows its sub-title;
 * with neither, `title` is left out and the reader uses the channel's name. `thumbnail` is kept
 * only for an absolute http(s) URL, `releaseInfo` is the year of the date, a star rating is a
 * rating of system `stars`.
 * @example videoTail({ title: 'News', subTitle: 'Late', categories: ['News'], ratings: [], directors: [], actors: [] }) // ',"title":"News — Late","genres":["News"]'
 */
export function videoTail(p: ProgrammeContent): string {
  return renderTail(p, jsonString);
}

/** videoTail, with `quote` as the JSON string of the title, sub-title and description. */
function renderTail(p: ProgrammeContent, quote: (text: string) => string): string {
  let tail = '';
  const title = p.title !== '' ? p.title : p.subTitle;
  if (title !== undefined && title !== '') {
    tail += `,"title":${quote(p.subTitle !== undefined && p.subTitle !== title ? `${title} — ${p.subTitle}` : title)}`;
  }
  if (p.description !== undefined) tail += `,"overview":${quote(p.description)}`;
  if (p.icon !== undefined && HTTP.test(p.icon) && isAbsoluteUrl(p.icon)) tail += `,"thumbnail":${jsonString(p.icon)}`;
  const year = p.date === undefined ? undefined : FOUR_DIGITS.exec(p.date)?.[0];
  if (year !== undefined) tail += `,"releaseInfo":"${year}"`;
  if (p.season !== undefined) tail += `,"season":${p.season}`;
  if (p.episode !== undefined) tail += `,"episode":${p.episode}`;
  if (p.categories.length > 0) tail += `,"genres":${jsonStrings(p.categories)}`;
  if (p.actors.length > 0) tail += `,"cast":${jsonStrings(p.actors)}`;
  if (p.directors.length > 0) tail += `,"directors":${jsonStrings(p.directors)}`;
  if (p.ratings.length > 0 || p.starRating !== undefined) {
    let ratings = '[';
    for (const r of p.ratings) {
      if (ratings.length > 1) ratings += ',';
      ratings +=
        r.system === undefined
          ? `{"value":${jsonString(r.value)}}`
          : `{"system":${jsonString(r.system)},"value":${jsonString(r.value)}}`;
    }
    if (p.starRating !== undefined) {
      ratings += `${ratings.length > 1 ? ',' : ''}{"system":"stars","value":${jsonString(p.starRating)}}`;
    }
    tail += `,"ratings":${ratings}]`;
  }
  return tail;
}

/** The start of a tail that carries a title; a tail without it gets the channel's name. */
export const TITLED_TAIL = Buffer.from(',"title":');

/** A programme's `video` fields (videoTail) in the import's languages, its texts clipped. */
export function programmeTail(p: Programme, languages: readonly string[]): string {
  const title = clip(pickText(p.titles, languages) ?? '', LIMITS.title);
  const subTitle = clipOptional(pickText(p.subTitles, languages), LIMITS.title);
  const description = clipOptional(pickText(p.descriptions, languages), LIMITS.description);
  // Most guide texts hold nothing that cleaning removes or JSON escapes: one scan of each tells,
  // where cleaning and quoting scanned each twice (a third of programmeTail's time).
  const plain =
    !SPECIAL.test(title) &&
    (subTitle === null || !SPECIAL.test(subTitle)) &&
    (description === null || !SPECIAL.test(description));
  const content: ProgrammeContent = {
    title: plain ? title : cleanName(title),
    subTitle: plain ? (subTitle ?? undefined) : cleanOptional(cleanName, subTitle),
    description: plain ? (description ?? undefined) : cleanOptional(cleanText, description),
    icon: clipOptional(p.icon, LIMITS.url) ?? undefined,
    categories: pickCategories(p.categories, languages),
    season: Number.isSafeInteger(p.season) ? p.season : undefined,
    episode: Number.isSafeInteger(p.episode) ? p.episode : undefined,
    date: clipOptional(p.date, LIMITS.item) ?? undefined,
    ratings:
      p.ratings.length === 0
        ? NONE
        : p.ratings
            .slice(0, LIMITS.items)
            .map((r) =>
              r.system === undefined
                ? { value: clip(r.value, LIMITS.item) }
                : { system: clip(r.system, LIMITS.item), value: clip(r.value, LIMITS.item) },
            ),
    starRating: p.starRating === undefined ? undefined : clip(p.starRating, LIMITS.item),
    directors: clipList(p.directors),
    actors: clipList(p.actors),
  };
  return renderTail(content, plain ? quoted : jsonString);
}

/**
 * What cleaning removes (sources/clean.ts: C0 and C1 controls, DEL) or JSON.stringify escapes
 * (`"`, `\\`, surrogates): a text with none of it is its own cleaned form, and its JSON string is
 * itself in quotes (` — `, which joins title and sub-title, needs neither).
 */
const SPECIAL = /["\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]/;

/** The JSON string of a text known to need no escaping. */
function quoted(text: string): string {
  return `"${text}"`;
}

/** `text` cleaned of control characters (sources/clean.ts), when there is one. */
function cleanOptional(clean: (text: string) => string, text: string | null | undefined): string | undefined {
  return text === undefined || text === null ? undefined : clean(text);
}

/** The video fields of a `video` tail. */
function parseTail(tail: unknown): Partial<Video> {
  const text = typeof tail === 'string' ? tail : String(tail ?? '');
  return text === '' ? {} : (JSON.parse(`{${text.slice(1)}}`) as Partial<Video>);
}

/** A stored programme as a row: its video fields parsed. */
export function programmeRow(p: StoredProgramme): ProgrammeRow {
  return { start: p.start, stop: p.stop, video: parseTail(p.video) };
}

/** The SELECT list that `channelFromRaw` reads (11 columns); column 9 is the guide key id. */
export const CHANNEL_SELECT =
  'c.id, c.name, c.logo, c.grp, c.number, c.sort, c.guide_key, c.catchup, c.source, c.key_id, c.catchup_streams';

/** A channel row from a raw result of CHANNEL_SELECT. */
export function channelFromRaw(r: readonly unknown[]): ChannelRow {
  return {
    id: r[0] as string,
    name: r[1] as string,
    logo: (r[2] as string | null) ?? undefined,
    group: (r[3] as string | null) ?? undefined,
    number: (r[4] as number | null) ?? undefined,
    sort: r[5] as number,
    guideKey: (r[6] as string | null) ?? undefined,
    catchup: r[7] === null ? undefined : (JSON.parse(r[7] as string) as Record<string, string>),
    source: (r[8] as string | null) ?? undefined,
    ...(typeof r[10] === 'string' ? { catchupStreams: JSON.parse(r[10]) as CatchupStream[] } : {}),
  };
}

/** A stream row from `SELECT url, name, user_agent, referrer, kodi_props, source`. */
export function streamFromRaw(r: unknown[]): StreamRow {
  return {
    url: r[0] as string,
    name: (r[1] as string | null) ?? undefined,
    userAgent: (r[2] as string | null) ?? undefined,
    referrer: (r[3] as string | null) ?? undefined,
    kodiProps: r[4] === null ? undefined : (JSON.parse(r[4] as string) as Record<string, string>),
    ...(typeof r[5] === 'string' ? { source: r[5] } : {}),
  };
}

/** A string→string map as bounded JSON, or null when empty. */
export function recordJson(record: Readonly<Record<string, string>> | undefined): string | null {
  if (record === undefined) return null;
  const entries = Object.entries(record).slice(0, LIMITS.items);
  if (entries.length === 0) return null;
  return JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [clip(k, LIMITS.item), clip(v, LIMITS.url)])));
}
