/**
 * A health pass as a good neighbour, counted at the servers: no host ever has more than `perHost`
 * connections from it at once (redirects and HLS variants to other hosts included), the budget
 * of requests holds, a host answering 429 is left alone, private addresses are not reached unless
 * allowed, Xtream accounts are not checked unless named; and health belongs to a stream's URL
 * across re-imports.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLiveTv, runHealthPass } from '../src/livetv/index.js';
import { xtreamSource } from '../src/sources/xtream/index.js';
import { sourceKey } from '../src/store/index.js';
import { type TempStore, tempStore } from './fixtures/livetv/setup.js';
import {
  answer,
  liveTs,
  masterPlaylist,
  mediaPlaylist,
  type StreamHost,
  startStreamHost,
} from './helpers/stream-host.js';
import { startPanel } from './helpers/xtream-panel.js';

let temp: TempStore;
let hosts: StreamHost[] = [];
beforeEach(() => {
  temp = tempStore();
});
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  hosts = [];
  temp.cleanup();
});

async function host(): Promise<StreamHost> {
  const h = await startStreamHost();
  hosts.push(h);
  return h;
}

function playlist(urls: readonly string[], name = 'tv.m3u'): string {
  const lines = ['#EXTM3U'];
  for (const [i, url] of urls.entries()) lines.push(`#EXTINF:-1 tvg-id="c${i}.test",Channel ${i}`, url);
  const file = join(temp.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('connections per host', () => {
  it('never more than perHost at once at any host, with redirects and variants across hosts', async () => {
    const [a, b, c] = [await host(), await host(), await host()];
    const urls: string[] = [];
    for (const [i, h] of [a, b, c].entries()) {
      for (let n = 0; n < 8; n++) {
        // Slow to answer, so checks pile up against the limit.
        h.routes.set(`/s${n}.ts`, liveTs(60 + ((n * 37) % 90)));
        urls.push(`${h.url}/s${n}.ts`);
      }
      const next = [a, b, c][(i + 1) % 3]!;
      for (let n = 0; n < 4; n++) {
        h.routes.set(`/r${n}.ts`, (_req, res) => res.writeHead(302, { location: `${next.url}/s${n}.ts` }).end());
        urls.push(`${h.url}/r${n}.ts`);
        h.routes.set(`/m${n}.m3u8`, answer(200, masterPlaylist([`${next.url}/v${n}.m3u8`]), {}, 40));
        next.routes.set(`/v${n}.m3u8`, answer(200, mediaPlaylist(), {}, 40));
        urls.push(`${h.url}/m${n}.m3u8`);
      }
    }
    await importLiveTv(temp.store, { playlists: [{ location: playlist(urls) }] });
    const result = await runHealthPass(temp.store, { allowPrivate: true, concurrency: 16, perHost: 2 });
    expect(result.counts.ok).toBe(urls.length);
    // Redirects and variants are requests of their own: 48 streams, 72 requests.
    expect(result.requests).toBe(72);
    for (const h of [a, b, c]) {
      expect(h.connections.max, `${h.url} had ${h.connections.max} connections at once`).toBeLessThanOrEqual(2);
    }
    // Every connection is closed (the last close reaches the servers a moment after the pass ends).
    await expect.poll(() => a.connections.open + b.connections.open + c.connections.open, { timeout: 2000 }).toBe(0);
    // The limit was reached, not avoided by running one at a time.
    expect(Math.max(a.connections.max, b.connections.max, c.connections.max)).toBe(2);

    // perHost 1: one connection at a time at each host, whatever the concurrency.
    for (const h of [a, b, c]) h.connections.max = 0;
    await runHealthPass(temp.store, { allowPrivate: true, concurrency: 16, perHost: 1, pauseMs: 20 });
    expect([a, b, c].map((h) => h.connections.max)).toEqual([1, 1, 1]);
  }, 60_000);

  it('spends no more than its budget of requests, and starts the next pass with the streams left', async () => {
    const h = await host();
    const urls = Array.from({ length: 12 }, (_, n) => `${h.url}/s${n}.ts`);
    for (let n = 0; n < urls.length; n++) h.routes.set(`/s${n}.ts`, liveTs());
    await importLiveTv(temp.store, { playlists: [{ location: playlist(urls) }] });
    const first = await runHealthPass(temp.store, {
      allowPrivate: true,
      concurrency: 8,
      perHost: 4,
      maxRequests: 5,
      pauseMs: 5,
    });
    expect(first.requests).toBe(5);
    expect(first.counts.ok).toBe(5);
    expect(first.skipped.notStarted).toBe(7);
    expect(first.budgetSpent).toBe(true);
    expect(h.requests).toHaveLength(5);
    const second = await runHealthPass(temp.store, {
      allowPrivate: true,
      concurrency: 8,
      perHost: 4,
      maxRequests: 7,
      pauseMs: 5,
    });
    // The streams never checked go first.
    const checked = new Set(h.requests.slice(5).map((q) => q.path));
    expect(checked).toEqual(
      new Set(
        Array.from({ length: 12 }, (_, n) => `/s${n}.ts`).filter(
          (p) => !h.requests.slice(0, 5).some((q) => q.path === p),
        ),
      ),
    );
    expect(second.counts.ok).toBe(7);
  });

  it('leaves a host that answers 429 alone for the rest of the pass; its streams keep what they had', async () => {
    const [busy, calm] = [await host(), await host()];
    const urls: string[] = [];
    for (let n = 0; n < 6; n++) {
      busy.routes.set(`/s${n}.ts`, answer(429, 'Too Many Requests', { 'retry-after': '60' }));
      calm.routes.set(`/s${n}.ts`, liveTs());
      urls.push(`${busy.url}/s${n}.ts`, `${calm.url}/s${n}.ts`);
    }
    await importLiveTv(temp.store, { playlists: [{ location: playlist(urls) }] });
    const result = await runHealthPass(temp.store, { allowPrivate: true, perHost: 1, pauseMs: 5 });
    expect(busy.requests).toHaveLength(1);
    expect(result.counts.ok).toBe(6);
    expect(result.skipped.rateLimited).toBe(6);
    expect(temp.store.getStreams('mq-tv:c0.test')[0]?.health).toBeUndefined();
  });
});

describe('what is checked', () => {
  it('reaches no private or loopback address unless sources.allowPrivate allows it', async () => {
    const h = await host();
    h.routes.set('/live.ts', liveTs());
    await importLiveTv(temp.store, { playlists: [{ location: playlist([`${h.url}/live.ts`]) }] });
    const refused = await runHealthPass(temp.store, {});
    expect(refused.skipped.private).toBe(1);
    expect(h.requests).toHaveLength(0);
    expect(temp.store.getStreams('mq-tv:c0.test')[0]?.health).toBeUndefined();
    // Allowed by URL, as sources.allowPrivate lists them.
    const allowed = await runHealthPass(temp.store, { allowPrivate: [`${h.url}/live.ts`] });
    expect(allowed.counts.ok).toBe(1);
  });

  it("checks an Xtream account's streams only when the account is named (its panel counts connections)", async () => {
    const h = await host();
    h.routes.set('/live.ts', liveTs());
    const panel = await startPanel({ live: 6, formats: ['ts'] });
    try {
      const account = xtreamSource({ url: panel.account }, {});
      await importLiveTv(temp.store, {
        playlists: [
          { location: playlist([`${h.url}/live.ts`]) },
          { location: account.account.location, reader: account.live! },
        ],
      });
      const asked = panel.asked.length;
      const mine = await runHealthPass(temp.store, { allowPrivate: true, pauseMs: 5 });
      expect(mine.streams).toBe(1);
      expect(panel.asked.length).toBe(asked);
      const named = await runHealthPass(temp.store, {
        allowPrivate: true,
        pauseMs: 5,
        sources: [sourceKey('playlist', account.account.location)],
      });
      expect(named.streams).toBe(6);
      expect(panel.asked.length).toBe(asked + 6);
    } finally {
      await panel.close();
    }
  });

  it("keeps a stream's health across re-imports of its URL, and forgets URLs no playlist has", async () => {
    const h = await host();
    h.routes.set('/a.ts', liveTs());
    const first = playlist([`${h.url}/a.ts`, `${h.url}/b.ts`]);
    await importLiveTv(temp.store, { playlists: [{ location: first }] });
    await runHealthPass(temp.store, { allowPrivate: true, pauseMs: 5 });
    const before = temp.store.getStreams('mq-tv:c1.test')[0]?.health;
    expect(before).toMatchObject({ state: 'dead', failures: 1 });
    // The same URLs in another order, a new channel first: health follows the URL.
    writeFileSync(
      first,
      `#EXTM3U\n#EXTINF:-1 tvg-id="new.test",New\n${h.url}/c.ts\n#EXTINF:-1 tvg-id="c1.test",Channel 1\n${h.url}/b.ts\n`,
    );
    await importLiveTv(temp.store, { playlists: [{ location: first }] });
    expect(temp.store.getStreams('mq-tv:c1.test')[0]?.health).toEqual(before);
    expect(temp.store.getStreams('mq-tv:new.test')[0]?.health).toBeUndefined();
    await runHealthPass(temp.store, { allowPrivate: true, pauseMs: 5 });
    expect(temp.store.getStreams('mq-tv:c1.test')[0]?.health).toMatchObject({ failures: 2 });
    // /a.ts is in no playlist any more: its row went with the pass.
    expect(
      temp.store
        .healthTargets()
        .map((t) => t.url)
        .sort(),
    ).toEqual([`${h.url}/b.ts`, `${h.url}/c.ts`]);
    expect(temp.store.healthChanges(0).map((c) => c.url)).not.toContain(`${h.url}/a.ts`);
  });
});
