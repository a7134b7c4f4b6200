/**
 * The relay in-process, as serve wires it: a playlist imported into a real store, the live-TV part
 * with the relay's links, the relay mounted at /relay on the same origin, served on 127.0.0.1
 * port 0 (or over https with a test certificate). For the relay's HTTP tests; the browser tests
 * run `marquee serve` itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeAddon } from '../../src/addon/index.js';
import { createLiveTvPart, importLiveTv } from '../../src/livetv/index.js';
import {
  createRelay,
  lookUp,
  type Relay,
  type RelayLimits,
  type RelayMode,
  relayLinks,
  relayTokens,
  type SourceLimit,
} from '../../src/relay/index.js';
import { createRequestHandler, generateKeyRing, listen, type RunningServer } from '../../src/server/index.js';
import { openStore, type Store, sourceKey } from '../../src/store/index.js';
import { type LiveHost, startLiveHost } from './live-host.js';

export interface RelayServer {
  readonly url: string;
  readonly store: Store;
  readonly relay: Relay;
  readonly server: RunningServer;
  /** Stream health verdicts the relay asked to record, as recorded. */
  readonly failures: { url: string; state: string; detail: string }[];
  /** The playlist's source key (streams.origin). */
  readonly pool: string;
  close(): Promise<void>;
}

export interface RelayServerOptions {
  /** The playlist's text (URLs of the test's upstream hosts). */
  readonly playlist: string;
  readonly mode?: RelayMode;
  readonly keepDirect?: boolean;
  readonly limits?: Partial<RelayLimits>;
  /** The playlist's maxConnections. */
  readonly maxConnections?: number;
  readonly tls?: { certFile: string; keyFile: string };
}

export async function startRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-relay-'));
  const playlist = join(dir, 'tv.m3u');
  writeFileSync(playlist, options.playlist);
  const store = openStore(join(dir, 'marquee.db'));
  await importLiveTv(store, { playlists: [{ location: playlist }] });
  const ring = generateKeyRing('k1');
  const tokens = relayTokens(() => ring);
  const pool = sourceKey('playlist', playlist);
  const failures: RelayServer['failures'] = [];
  const limit: SourceLimit | undefined =
    options.maxConnections === undefined
      ? undefined
      : {
          max: options.maxConnections,
          says: `this playlist allows ${options.maxConnections} connection${options.maxConnections === 1 ? '' : 's'} at a time (livetv.playlists[0].maxConnections)`,
        };
  const relay = createRelay({
    tokens,
    resolve: (payload, digest) => lookUp(store, payload, digest),
    limits: { idleMs: 1_000, stallMs: 3_000, ...options.limits },
    policy: { allowPrivate: true },
    sourceLimit: (key) => (key === pool ? limit : undefined),
    onFailure: (url, state, detail) => {
      failures.push({ url, state, detail });
      // As `marquee serve` does: a verdict that cannot be written is logged there, never thrown.
      store.recordStreamVerdicts([{ url, state, detail, at: Date.now() }]).catch(() => {});
    },
  });
  const links = relayLinks({
    mode: options.mode ?? 'auto',
    tokens,
    ...(options.keepDirect ? { keepDirect: true } : {}),
  });
  const addon = () =>
    composeAddon(
      { id: 'org.marquee.relay.test', version: '1.0.0', name: 'Relay test', description: 'test' },
      [createLiveTvPart(store, { relay: links })],
      { dataVersion: () => store.dataVersion() },
    );
  const handler = createRequestHandler(addon, {
    mounts: { relay: (request, path) => relay.handle(request, path) },
    responseCache: { maxBytes: 1 << 20 },
  });
  const server = await listen(handler, {
    port: 0,
    host: '127.0.0.1',
    maxConnectionsPerAddress: 0,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  return {
    url: server.url,
    store,
    relay,
    server,
    failures,
    pool,
    async close() {
      relay.close();
      await server.close(1_000);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The live hosts and relay servers one test file starts, closed together (servers first) after each test. */
export interface RelayFixtures {
  /** A live upstream host on 127.0.0.1. */
  host(): Promise<LiveHost>;
  server(options: RelayServerOptions): Promise<RelayServer>;
  close(): Promise<void>;
}

/**
 * @example const running = relayFixtures(); afterEach(() => running.close());
 */
export function relayFixtures(): RelayFixtures {
  let hosts: LiveHost[] = [];
  let servers: RelayServer[] = [];
  return {
    async host() {
      const h = await startLiveHost();
      hosts.push(h);
      return h;
    },
    async server(options) {
      const s = await startRelayServer(options);
      servers.push(s);
      return s;
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(hosts.map((h) => h.close()));
      servers = [];
      hosts = [];
    },
  };
}

/** A playlist of channels named by their tvg-id, each with its option lines (#EXTVLCOPT, …) before its URL. */
export function relayPlaylist(entries: { name: string; url: string; options?: string[] }[]): string {
  return `#EXTM3U\n${entries
    .map(
      (e) => `#EXTINF:-1 tvg-id="${e.name}",${e.name}\n${(e.options ?? []).join('\n')}${e.options ? '\n' : ''}${e.url}`,
    )
    .join('\n')}\n`;
}

/** The URL of the first stream the add-on answers for a channel (the relay link, unless the relay is off). */
export async function relayLink(s: RelayServer, channel: string): Promise<string> {
  const answer = await fetch(`${s.url}/stream/tv/${encodeURIComponent(channel)}.json`);
  const { streams } = (await answer.json()) as { streams: { url: string }[] };
  return streams[0]!.url;
}

/** The URI lines of an HLS playlist (neither blank nor a tag). */
export const playlistUris = (playlist: string): string[] =>
  playlist.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
