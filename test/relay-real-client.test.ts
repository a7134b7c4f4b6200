/**
 * Stream answers with the relay on, in the real Stremio client core: the client keeps the relay
 * links (nothing dropped), first, with no proxy headers and not marked notWebReady, so its web
 * player plays them as HLS; with keepDirect the direct URLs follow, marked as before. No answer
 * the client got holds an upstream address or a password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayServer, startRelayServer } from './helpers/relay-server.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const PLAYLIST = [
  '#EXTM3U',
  '#EXTINF:-1 tvg-id="news",News',
  '#EXTVLCOPT:http-user-agent=SecretPlayer/1.0',
  '#EXTVLCOPT:http-referrer=https://portal.example/',
  'http://tv.example:8080/live/viewer/pa55word/101.ts',
  '#EXTINF:-1 tvg-id="news",News',
  'http://backup.example/news/index.m3u8',
  '#EXTINF:-1 tvg-id="arte",Arte',
  'https://cdn.example/arte/index.m3u8',
  '',
].join('\n');

let relayed: RelayServer;
let direct: RelayServer;
let client: StremioClient;

beforeAll(async () => {
  relayed = await startRelayServer({ playlist: PLAYLIST });
  direct = await startRelayServer({ playlist: PLAYLIST, keepDirect: true });
  client = await createStremioClient();
});
afterAll(async () => {
  client.close();
  await relayed.close();
  await direct.close();
});

describe('relayed stream answers in the real client', () => {
  it('keeps the relay links, first, with no proxy headers', async () => {
    const transportUrl = `${relayed.url}/manifest.json`;
    await client.installAddon(transportUrl);
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:news' });
    // The MPEG-TS that needs headers is relayed; the plain HLS over http plays as it is here (no https).
    expect(result.streams.map((s) => s.url)).toEqual([
      expect.stringMatching(new RegExp(`^${relayed.url}/relay/[A-Za-z0-9_.-]+/index\\.m3u8$`)),
      'http://backup.example/news/index.m3u8',
    ]);
    expect(result.streams[0]!.behaviorHints ?? {}).not.toHaveProperty('proxyHeaders');
    expect((result.streams[0]!.behaviorHints as { notWebReady?: boolean } | undefined)?.notWebReady ?? false).toBe(
      false,
    );
    expect(JSON.stringify(result.streams[0])).not.toMatch(/tv\.example|pa55word|SecretPlayer|portal/);
    // An https HLS stream that needs nothing plays as it is: served direct.
    const arte = await client.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:arte' });
    expect(arte.streams.map((s) => s.url)).toEqual(['https://cdn.example/arte/index.m3u8']);
  });

  it('with keepDirect, lists the direct URLs after the relayed ones, marked as they were', async () => {
    // Another client: the two servers are the same add-on (one id).
    const other = await createStremioClient();
    const transportUrl = `${direct.url}/manifest.json`;
    await other.installAddon(transportUrl);
    const result = await other.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:news' });
    other.close();
    expect(result.streams.map((s) => s.url)).toEqual([
      expect.stringContaining('/relay/'),
      'http://tv.example:8080/live/viewer/pa55word/101.ts',
      'http://backup.example/news/index.m3u8',
    ]);
    expect(result.streams[1]!.behaviorHints).toMatchObject({
      notWebReady: true,
      proxyHeaders: { request: { 'User-Agent': 'SecretPlayer/1.0', Referer: 'https://portal.example/' } },
    });
  });
});
