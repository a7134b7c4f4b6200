/**
 * Every path a client can reach on a site, found the way the client finds them (manifest →
 * catalogs with each genre, a search, guide days and a second page → meta of every item → streams
 * and subtitles of every item and episode), and whole HTTP answers of those paths over a real
 * socket, to compare a server before and after something went wrong, byte for byte.
 */
import type { Manifest } from '../../src/protocol/index.js';
import type { CoreResponse, RequestHandler } from '../../src/server/index.js';
import { httpRequest } from '../helpers/http.js';

const GUIDE_DAYS = ['2026-02-28', '2026-03-01', '2026-03-02'];

/** GET `path` in-process and parse the JSON body (undefined when not 200). */
async function getJson(handler: RequestHandler, path: string): Promise<unknown> {
  const response: CoreResponse = await handler({ method: 'GET', url: path, header: () => undefined });
  if (response.status !== 200) return undefined;
  return JSON.parse(Buffer.from(response.body).toString('utf8'));
}

/** The catalog, meta, stream and subtitles paths of the add-on `handler` serves, in a stable order. */
export async function servedPaths(handler: RequestHandler): Promise<string[]> {
  const manifest = (await getJson(handler, '/manifest.json')) as Manifest;
  const paths = new Set<string>(['/manifest.json']);
  const items = new Map<string, string>();
  for (const catalog of manifest.catalogs) {
    const base = `/catalog/${encodeURIComponent(catalog.type)}/${encodeURIComponent(catalog.id)}`;
    const extras = [''];
    for (const extra of catalog.extra ?? []) {
      if (extra.name === 'genre') for (const g of extra.options ?? []) extras.push(`genre=${encodeURIComponent(g)}`);
      if (extra.name === 'search') extras.push('search=news', 'search=a');
      if (extra.name === 'skip') extras.push('skip=2', 'skip=100');
      if (extra.name === 'date') for (const d of GUIDE_DAYS) extras.push(`date=${d}`, `date=${d}&skip=1`);
    }
    for (const extra of extras) {
      const path = extra ? `${base}/${extra}.json` : `${base}.json`;
      const body = (await getJson(handler, path)) as { metas?: { id: string; type: string }[] } | undefined;
      if (!body) continue;
      paths.add(path);
      for (const m of body.metas ?? []) items.set(m.id, m.type);
    }
  }
  for (const [id, type] of items) {
    const item = `${encodeURIComponent(type)}/${encodeURIComponent(id)}.json`;
    paths.add(`/meta/${item}`);
    paths.add(`/stream/${item}`);
    paths.add(`/subtitles/${item}`);
    const meta = (await getJson(handler, `/meta/${item}`)) as { meta?: { videos?: { id: string }[] } } | undefined;
    for (const v of meta?.meta?.videos ?? [])
      paths.add(`/stream/${encodeURIComponent(type)}/${encodeURIComponent(v.id)}.json`);
  }
  return [...paths];
}

/** One answer as bytes: status line, every header but the date and connection ones, and the body. */
export interface WholeAnswer {
  readonly path: string;
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

const VOLATILE = new Set(['date', 'connection', 'keep-alive']);

/** Fetches every path over the socket at `baseUrl`, asking for gzip as clients do. */
export async function wholeAnswers(baseUrl: string, paths: readonly string[]): Promise<WholeAnswer[]> {
  const answers: WholeAnswer[] = [];
  for (const path of paths) {
    const res = await httpRequest(baseUrl, path, { headers: { 'accept-encoding': 'gzip, br' } });
    const headers = Object.entries(res.headers)
      .filter(([name]) => !VOLATILE.has(name))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => `${name}: ${String(value)}`)
      .join('\n');
    answers.push({ path, status: res.status, headers, body: res.body.toString('base64') });
  }
  return answers;
}
