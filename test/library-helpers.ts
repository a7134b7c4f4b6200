/**
 * Shared setup of the library tests: a temp folder with a store, library files written as an
 * operator would write them, and the library add-on served on 127.0.0.1 port 0. The served
 * add-on is rebuilt when `store.dataVersion()` changes, as a server does after an import.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Addon, composeAddon } from '../src/addon/index.js';
import { createLibraryPart, type LibraryPartOptions } from '../src/library/index.js';
import type { ConfigField } from '../src/protocol/index.js';
import { createRequestHandler, listen, type RunningServer } from '../src/server/index.js';
import { openStore, type Store } from '../src/store/index.js';

export interface LibraryFixture {
  readonly dir: string;
  readonly store: Store;
  /** Writes `content` (JSON-serialised unless a string) to `name` in the temp folder; returns its path. */
  write(name: string, content: unknown): string;
  /** Serves the library add-on; `addon()` is the add-on currently served. */
  serve(options?: LibraryPartOptions, config?: readonly ConfigField[]): Promise<RunningServer & { addon(): Addon }>;
  /** GET `path` from the last server started, as JSON, with its status. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  get(path: string): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export const BASE = { id: 'org.marquee.library.test', version: '1.0.0', name: 'Library test', description: 'Test' };

/** A temp folder with a fresh store in it. */
export function libraryFixture(): LibraryFixture {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-library-'));
  const store = openStore(join(dir, 'store.db'));
  const servers: RunningServer[] = [];
  const fixture: LibraryFixture = {
    dir,
    store,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
    async serve(options = {}, config) {
      const build = () =>
        composeAddon({ ...BASE, ...(config ? { config } : {}) }, [createLibraryPart(store, options)], {
          dataVersion: () => store.dataVersion(),
        });
      let addon = build();
      let version = store.dataVersion();
      const current = () => {
        if (store.dataVersion() !== version) {
          version = store.dataVersion();
          addon = build();
        }
        return addon;
      };
      const server = await listen(createRequestHandler(current), { port: 0, host: '127.0.0.1' });
      servers.push(server);
      return Object.assign(server, { addon: current });
    },
    async get(path) {
      const server = servers[servers.length - 1]!;
      const response = await fetch(`${server.url}${path}`);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON (a 404 page): keep the text
      }
      return { status: response.status, body, headers: response.headers };
    },
    async close() {
      for (const s of servers) await s.close(100);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

export const GENRES = ['Action & Adventure', 'Comédie', 'Drama', 'Science Fiction', 'Documentary', 'Kids'];

/**
 * A generated library in the file format: `movies` movies (genres from GENRES, many equal
 * release dates and ratings so tie-breaks matter, some without date or rating), `series`
 * series of three episodes each, and 3 adult movies whose only genre is "Late Night".
 */
export function generatedLibrary(movies: number, series = 0): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < movies; i++) {
    const n = String(i).padStart(3, '0');
    items.push({
      id: `tt9${String(i).padStart(6, '0')}`,
      type: 'movie',
      name: `Film ${n}`,
      ...(i % 10 === 9 ? {} : { released: `20${String(i % 20).padStart(2, '0')}-06-01` }),
      ...(i % 7 === 3 ? {} : { imdbRating: (i % 9) + 1 }),
      genres: [GENRES[i % GENRES.length]!, ...(i % 4 === 0 ? [GENRES[(i + 2) % GENRES.length]!] : [])],
      poster: `https://images.example/film-${n}.jpg`,
      description: `Generated film number ${i}.`,
      streams: [{ url: `https://media.example/film-${n}.mp4`, name: 'Example' }],
    });
  }
  for (let i = 0; i < 3; i++) {
    items.push({ id: `mq:adult-${i}`, type: 'movie', name: `Late Film ${i}`, adult: true, genres: ['Late Night'] });
  }
  for (let s = 0; s < series; s++) {
    items.push({
      id: `mq:show-${s}`,
      type: 'series',
      name: `Show ${s}`,
      released: `201${s % 10}-01-01`,
      genres: [GENRES[s % GENRES.length]!],
      videos: [1, 2, 3].map((e) => ({
        season: 1,
        episode: e,
        title: `Show ${s} episode ${e}`,
        streams: [{ url: `https://media.example/show-${s}/${e}.mp4` }],
      })),
    });
  }
  return items;
}
