/**
 * An operator's sources the way real providers' go bad (issue 17's table): two playlists served
 * over HTTP on 127.0.0.1, four guides (one gzip) and a library folder of one file per film, all
 * written relative to the real clock so that `marquee import` and `marquee serve` (which have no
 * test clock) serve their programmes. Each source can be replaced by one of the bad shapes, and
 * the answers a client gets are read over a real socket to compare before and after.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildAddon } from '../../src/cli/app.js';
import { createRequestHandler, listen } from '../../src/server/index.js';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';
import { openStore } from '../../src/store/index.js';
import { httpRequest } from '../helpers/http.js';

const HOUR = 3_600_000;

/** Channels of each playlist (tvg-ids), and which guide covers which. */
export const PLAYLIST_CHANNELS = { a: ['a1', 'a2', 'a3', 'a4', 'a5'], b: ['b1', 'b2', 'b3'] } as const;
export const GUIDE_CHANNELS = [
  ['a1', 'a2'],
  ['a3', 'a4'],
  ['a5', 'b1'],
  ['b2', 'b3'],
] as const;

export function playlistText(ids: readonly string[]): string {
  return `#EXTM3U\n${ids.map((id) => `#EXTINF:-1 tvg-id="${id}.xx" group-title="G",Channel ${id.toUpperCase()}\nhttps://streams.example/${id}.m3u8\n`).join('')}`;
}

/**
 * A guide for `ids` (guide channel ids `<id>.xx`), one programme an hour from 6 hours ago to
 * 30 hours ahead, titled `<title> <id> <n>`.
 */
export function guideText(
  ids: readonly string[],
  options: { title?: string; idSuffix?: string; hours?: number } = {},
): string {
  const start = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
  const hours = options.hours ?? 36;
  const channelId = (id: string) => `${id}.${options.idSuffix ?? 'xx'}`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (const id of ids) lines.push(`<channel id="${channelId(id)}"><display-name>Guide ${id}</display-name></channel>`);
  for (const id of ids) {
    for (let n = 0; n < hours; n++) {
      const from = start + n * HOUR;
      lines.push(
        `<programme start="${formatXmltvTime(from)}" stop="${formatXmltvTime(from + HOUR)}" channel="${channelId(id)}"><title>${options.title ?? 'Show'} ${id} ${n}</title></programme>`,
      );
    }
  }
  lines.push('</tv>');
  return `${lines.join('\n')}\n`;
}

export function movieJson(n: number): string {
  return JSON.stringify({
    id: `tt00000${n}`,
    type: 'movie',
    name: `Film ${n}`,
    genres: ['Drama'],
    streams: [{ url: `https://media.example/film${n}.mp4`, name: 'HD' }],
  });
}

export const HTML_WITH_ONE_URL =
  '<!DOCTYPE html>\n<html><head><title>Account suspended</title></head><body>\n<p>Renew at</p>\nhttp://provider.example/renew\n</body></html>\n';

export type Row =
  | 'guide <tv></tv>'
  | 'guide ids renamed'
  | 'guide invalid dates'
  | 'guide gzip of the header only'
  | 'playlist HTML page with one URL'
  | 'second playlist #EXTM3U alone'
  | 'second playlist HTML page'
  | 'library file HTML page';

export const ROWS: readonly Row[] = [
  'guide <tv></tv>',
  'guide ids renamed',
  'guide invalid dates',
  'guide gzip of the header only',
  'playlist HTML page with one URL',
  'second playlist #EXTM3U alone',
  'second playlist HTML page',
  'library file HTML page',
];

/** The sources of one operator, in `dir`. */
export class Sources {
  readonly guides: string[];
  readonly library: string;
  /** What the playlist server answers, by path. */
  readonly served = new Map<string, string>();
  #server: Server | undefined;
  #base = '';

  constructor(readonly dir: string) {
    this.guides = GUIDE_CHANNELS.map((_, i) => join(dir, i === 3 ? 'g4.xml.gz' : `g${i + 1}.xml`));
    this.library = join(dir, 'films');
  }

  get playlists(): string[] {
    return [`${this.#base}/a.m3u`, `${this.#base}/b.m3u`];
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const body = this.served.get(req.url ?? '');
      if (body === undefined) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': body.startsWith('<') ? 'text/html' : 'audio/x-mpegurl' }).end(body);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  /** Writes every source good. */
  writeGood(): void {
    this.served.set('/a.m3u', playlistText(PLAYLIST_CHANNELS.a));
    this.served.set('/b.m3u', playlistText(PLAYLIST_CHANNELS.b));
    GUIDE_CHANNELS.forEach((ids, i) => {
      this.writeGuide(i, guideText(ids));
    });
    mkdirSync(this.library, { recursive: true });
    for (const n of [1, 2, 3]) writeFileSync(join(this.library, `m${n}.json`), movieJson(n));
  }

  writeGuide(index: number, text: string): void {
    const path = this.guides[index]!;
    writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
  }

  /** Turns the source of `row` bad; returns its kind and its location as the report names it. */
  break(row: Row): { kind: string; location: string } {
    switch (row) {
      case 'guide <tv></tv>':
        this.writeGuide(0, '<tv></tv>\n');
        return { kind: 'guide', location: this.guides[0]! };
      case 'guide ids renamed':
        this.writeGuide(1, guideText(GUIDE_CHANNELS[1], { idSuffix: 'renamed' }));
        return { kind: 'guide', location: this.guides[1]! };
      case 'guide invalid dates':
        this.writeGuide(2, guideText(GUIDE_CHANNELS[2]).replace(/start="\d{14} \+0000"/g, 'start="2026-13-45"'));
        return { kind: 'guide', location: this.guides[2]! };
      case 'guide gzip of the header only':
        this.writeGuide(3, '<?xml version="1.0" encoding="UTF-8"?>\n');
        return { kind: 'guide', location: this.guides[3]! };
      case 'playlist HTML page with one URL':
        this.served.set('/a.m3u', HTML_WITH_ONE_URL);
        return { kind: 'playlist', location: this.playlists[0]! };
      case 'second playlist #EXTM3U alone':
        this.served.set('/b.m3u', '#EXTM3U\n');
        return { kind: 'playlist', location: this.playlists[1]! };
      case 'second playlist HTML page':
        this.served.set('/b.m3u', '<html><body><h1>502 Bad Gateway</h1></body></html>\n');
        return { kind: 'playlist', location: this.playlists[1]! };
      case 'library file HTML page':
        writeFileSync(join(this.library, 'm2.json'), '<!doctype html><html><body>Not found</body></html>');
        return { kind: 'library', location: join(this.library, 'm2.json') };
    }
  }

  /** The configuration file naming every source. */
  writeConfig(extra: Record<string, unknown> = {}): string {
    const file = join(this.dir, 'marquee.json');
    writeFileSync(
      file,
      JSON.stringify({
        livetv: { playlists: this.playlists, guides: this.guides },
        library: { files: [this.library] },
        ...extra,
      }),
    );
    return file;
  }
}

/** Today and the days around it, as guide-day extras. */
function guideDays(): string[] {
  return [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
}

/** The paths a client reaches on the add-on at `base`: manifest, catalogs (and guide days), every meta and stream. */
export async function clientPaths(base: string): Promise<string[]> {
  const manifest = (await httpRequest(base, '/manifest.json')).json() as {
    catalogs: { type: string; id: string; extra?: { name: string }[] }[];
  };
  const paths = ['/manifest.json'];
  const items = new Map<string, string>();
  for (const c of manifest.catalogs) {
    const list = [`/catalog/${c.type}/${c.id}.json`];
    if (c.extra?.some((e) => e.name === 'date'))
      for (const d of guideDays()) list.push(`/catalog/${c.type}/${c.id}/date=${d}.json`);
    for (const path of list) {
      const res = await httpRequest(base, path);
      if (res.status !== 200) continue;
      paths.push(path);
      for (const m of (res.json() as { metas?: { id: string; type: string }[] }).metas ?? []) items.set(m.id, m.type);
    }
  }
  for (const [id, type] of [...items].sort()) {
    paths.push(`/meta/${type}/${encodeURIComponent(id)}.json`, `/stream/${type}/${encodeURIComponent(id)}.json`);
  }
  return paths;
}

/** Status and body of each path. */
export async function answers(base: string, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const res = await httpRequest(base, path);
    out.push(`${path} ${res.status} ${res.body.toString('utf8')}`);
  }
  return out;
}

/** Serves the database `db` as `marquee serve` would (no refresh), runs `use` against it, and stops. */
export async function servedFrom<T>(db: string, use: (base: string) => Promise<T>): Promise<T> {
  const store = openStore(db);
  const running = await listen(
    createRequestHandler(() => buildAddon(store, {}, `${db}.keys.json`), { responseCache: false }),
    { port: 0 },
  );
  try {
    return await use(running.url);
  } finally {
    await running.close(1_000);
    store.close();
  }
}
