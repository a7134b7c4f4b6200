/**
 * Stream health in the real Stremio client core: two health passes over local stream hosts, then
 * the add-on as the client reads it. A channel whose first stream is dead and whose backup (from
 * another playlist) plays lists the backup first, the dead one marked offline; with
 * hideDeadChannels a channel whose every stream is dead is gone from the catalog and from search,
 * and its meta (an installed favourite) still opens.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLiveTv, runHealthPass } from '../src/livetv/index.js';
import { type Served, serve, type TempStore, tempStore } from './fixtures/livetv/setup.js';
import { answer, liveTs, type StreamHost, startStreamHost } from './helpers/stream-host.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

const CATALOG = { type: 'tv', id: 'mq-tv-channels' } as const;

let temp: TempStore;
let main: StreamHost;
let backup: StreamHost;
let served: Served;
let client: StremioClient;
let transportUrl: string;

beforeAll(async () => {
  temp = tempStore();
  main = await startStreamHost();
  backup = await startStreamHost();
  main.routes.set('/fine.ts', liveTs());
  main.routes.set('/gone.ts', answer(404, 'Not Found'));
  backup.routes.set('/news.ts', liveTs());
  backup.routes.set(
    '/gone.ts',
    answer(200, '<html><body>Subscribe to watch</body></html>', { 'content-type': 'text/html' }),
  );
  const mainList = join(temp.dir, 'main.m3u');
  writeFileSync(
    mainList,
    [
      '#EXTM3U',
      '#EXTINF:-1 tvg-id="news.test" group-title="News",News 24',
      `${main.url}/news.ts`, // answers 404: no such route
      '#EXTINF:-1 tvg-id="gone.test" group-title="News",Gone TV',
      `${main.url}/gone.ts`,
      '#EXTINF:-1 tvg-id="fine.test" group-title="News",Fine TV',
      `${main.url}/fine.ts`,
      '',
    ].join('\n'),
  );
  const backupList = join(temp.dir, 'backup.m3u');
  writeFileSync(
    backupList,
    [
      '#EXTM3U',
      '#EXTINF:-1 tvg-id="news.test",News 24 (backup)',
      `${backup.url}/news.ts`,
      '#EXTINF:-1 tvg-id="gone.test",Gone TV (backup)',
      `${backup.url}/gone.ts`,
      '',
    ].join('\n'),
  );
  await importLiveTv(temp.store, { playlists: [{ location: mainList }, { location: backupList }] });
  // Two passes: failuresBeforeDead (2) checks in a row make a stream offline.
  for (let pass = 0; pass < 2; pass++) await runHealthPass(temp.store, { allowPrivate: true, pauseMs: 5 });
  served = await serve(temp.store, { now: Date.now, health: { hideDeadChannels: true } });
  transportUrl = `${served.url}/manifest.json`;
  client = await createStremioClient();
  await client.installAddon(transportUrl);
});
afterAll(async () => {
  client?.close();
  await served?.close();
  await main?.close();
  await backup?.close();
  temp?.cleanup();
});

describe('stream health in the real client', () => {
  it('lists the live backup first and the dead first stream after it, marked offline', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:news.test' });
    expect(result.metaError).toBeNull();
    expect(result.streams.map((s) => s.url)).toEqual([`${backup.url}/news.ts`, `${main.url}/news.ts`]);
    // Each under its source's name, as backups from several playlists are.
    expect(result.streams.map((s) => s.name)).toEqual(['backup.m3u', 'main.m3u']);
    const dead = result.streams[1]!;
    expect(dead.description).toMatch(/^News 24 \(2\/2\)\noffline since \d\d:\d\d UTC$/);
    expect(result.streams[0]!.description).toBe('News 24 (backup) (1/2)');
  });

  it('leaves a channel whose every stream is dead out of the catalog and search', async () => {
    const whole = await client.loadWholeCatalog({ transportUrl, ...CATALOG });
    expect(whole.error).toBeNull();
    expect(whole.items.map((i) => i.id)).toEqual(['mq-tv:news.test', 'mq-tv:fine.test']);
    const news = await client.loadWholeCatalog({ transportUrl, ...CATALOG, extra: [['genre', 'News']] });
    expect(news.items.map((i) => i.id)).toEqual(['mq-tv:news.test', 'mq-tv:fine.test']);
    const rows = await client.search('Gone', { addonId: 'org.marquee.livetv.test' });
    expect(rows.flatMap((r) => r.items)).toEqual([]);
    const fine = await client.search('Fine', { addonId: 'org.marquee.livetv.test' });
    expect(fine.flatMap((r) => r.items.map((i) => i.id))).toEqual(['mq-tv:fine.test']);
  });

  it('still opens the dead channel (an installed favourite), its streams marked offline', async () => {
    const result = await client.loadMeta({ transportUrl, type: 'tv', id: 'mq-tv:gone.test' });
    expect(result.metaError).toBeNull();
    expect(result.meta?.name).toBe('Gone TV');
    expect(result.streams).toHaveLength(2);
    for (const stream of result.streams) expect(stream.description).toMatch(/\noffline since /);
  });
});
