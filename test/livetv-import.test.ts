/**
 * The live-TV import end to end on real files and a real store: channels and streams from the
 * playlist, every matching rule, priority merge of two guides, stable ids, failures that keep the
 * previous data served, and a refresh where nothing changed.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isMarqueeError } from '../src/errors.js';
import { importLiveTv } from '../src/livetv/index.js';
import { FIXTURE_OPTIONS, fixture, importFixtures, NOW, type TempStore, tempStore } from './fixtures/livetv/setup.js';

let temp: TempStore | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

function open(): TempStore {
  temp = tempStore();
  return temp;
}

describe('importLiveTv with the fixture playlist and two guides', () => {
  it('builds channels, streams and groups, and matches by every rule', async () => {
    const { store } = open();
    const result = await importFixtures(store);
    expect(result.status).toBe('imported');
    const channels = store.listChannels({ limit: 100 });
    expect(channels.map((c) => [c.id, c.name, c.group])).toEqual([
      ['mq-tv:bbcone.uk-hd', 'BBC One HD', 'News & Talk'],
      ['mq-tv:arte.fr', 'Arte', 'Culture'],
      ['mq-tv:arte.fr-plus1h', 'Arte +1', 'Culture'],
      ['mq-tv:das-erste', 'Das Erste', 'Culture'],
      ['mq-tv:tele-etoile-fhd', 'Télé Étoile FHD', 'Culture'],
      ['mq-tv:local.tv', 'My Local', 'Local'],
      ['mq-tv:nothing.xx', 'No Guide Channel', 'Local'],
      ['mq-tv:shop.xx', 'Shop TV', 'Shopping'],
    ]);
    // Numbered channels first by tvg-chno, then the others in playlist order.
    expect(channels.slice(0, 2).map((c) => c.number)).toEqual([1, 2]);
    // Each with the source it came from (its key): the relay counts connections per source.
    const origin = expect.stringMatching(/^playlist:[0-9a-f]{32}$/);
    expect(store.getStreams('mq-tv:bbcone.uk-hd')).toEqual([
      {
        url: 'https://streams.example/bbc1-hd.m3u8',
        name: 'BBC One HD',
        userAgent: undefined,
        referrer: undefined,
        kodiProps: undefined,
        origin,
      },
      {
        url: 'http://backup.example/bbc1.ts',
        name: 'BBC One HD (backup)',
        userAgent: 'Mozilla/5.0 (Marquee test)',
        referrer: 'https://portal.example/',
        kodiProps: undefined,
        origin,
      },
    ]);
    // A relative logo would be dropped by the client with its item: it is not kept.
    expect(store.getChannel('mq-tv:arte.fr')?.logo).toBeUndefined();
    expect(store.getChannel('mq-tv:bbcone.uk-hd')?.logo).toBe('https://logo.example/bbc1.png');

    expect(result.matchedBy).toEqual({ override: 1, tvgId: 2, feed: 1, displayName: 1, normalizedName: 1, scored: 0 });
    expect(result.unmatched).toEqual(['No Guide Channel', 'Shop TV']);
    expect(result.counts).toMatchObject({
      channels: 8,
      streams: 9,
      groups: 4,
      matchedChannels: 6,
      unmatchedChannels: 2,
    });
    expect(store.groups().map((g) => g.name)).toEqual(['News & Talk', 'Culture', 'Local', 'Shopping']);
  });

  it('keeps the first guide on overlaps, shifts +1 channels and skips guide channels nobody shows', async () => {
    const { store } = open();
    const result = await importFixtures(store);
    const day = (id: string) =>
      store.programmesAround(id, Date.parse('2026-03-01T00:00Z'), Date.parse('2026-03-02T00:00Z'));
    expect(day('mq-tv:arte.fr').map((p) => p.video.title)).toEqual(['Le Film — Première partie', 'Late Arte']);
    const shifted = day('mq-tv:arte.fr-plus1h');
    expect(shifted.map((p) => [new Date(p.start).toISOString(), p.video.title])).toEqual([
      ['2026-03-01T21:00:00.000Z', 'Le Film — Première partie'],
      ['2026-03-01T23:00:00.000Z', 'Late Arte'],
    ]);
    expect(day('mq-tv:local.tv').map((p) => p.video.title)).toEqual(['Regional News']);
    expect(result.dropped).toMatchObject({ overlapped: 2, unusedGuide: 1 });
    expect(result.sources.map((s) => [s.kind, s.status, s.records])).toEqual([
      ['playlist', 'fetched', 10],
      ['guide', 'fetched', 9],
      ['guide', 'fetched', 3],
    ]);
    expect(result.sources.every((s) => s.bytes > 0 && s.durationMs >= 0)).toBe(true);
  });

  it('warns with the line of a stream URL no player can open, and skips it', async () => {
    const { store } = open();
    const result = await importFixtures(store);
    expect(result.warnings).toContainEqual({
      source: fixture('channels.m3u'),
      line: 20,
      message: expect.stringContaining('"relative/path.ts" is not an http(s) or streaming URL'),
    });
    expect(store.getChannel('mq-tv:broken.xx')).toBeUndefined();
  });

  it('reports progress per source and phase, and when the channels are stored', async () => {
    const { store } = open();
    const seen: string[] = [];
    await importFixtures(store, {
      onProgress: (p) => seen.push(`${p.phase}:${p.bytes > 0}`),
      onChannelsStored: () => seen.push('channels stored'),
    });
    expect(seen[0]).toBe('playlist:true');
    expect(seen).toContain('guide:true');
    expect(seen.at(-1)).toBe('commit:false');
    // Once, between the playlists and the first guide: the moment the CLI collects garbage.
    expect(seen.filter((s) => s === 'channels stored')).toHaveLength(1);
    expect(seen.indexOf('channels stored')).toBeGreaterThan(seen.lastIndexOf('playlist:true'));
    expect(seen.indexOf('channels stored')).toBeLessThan(seen.indexOf('guide:true'));
  });

  it('filters groups by include and exclude lists', async () => {
    const { store } = open();
    const result = await importFixtures(store, { includeGroups: ['Culture', 'Local'], excludeGroups: ['Local'] });
    expect(result.counts.channels).toBe(4);
    expect(store.groups().map((g) => g.name)).toEqual(['Culture']);
  });
});

describe('stable channel ids', () => {
  it('keeps every id when the playlist is reordered and a colliding channel appears', async () => {
    const { store, dir } = open();
    await importFixtures(store);
    const before = new Map(store.listChannels({ limit: 100 }).map((c) => [c.name, c.id]));

    const lines = readFileSync(fixture('channels.m3u'), 'utf8').trimEnd().split('\n');
    const header = lines[0]!;
    const entries: string[][] = [];
    for (const line of lines.slice(1)) {
      if (line.startsWith('#EXTINF')) entries.push([line]);
      else entries.at(-1)!.push(line);
    }
    // A channel named "arte.fr" (no tvg-id) slugs like Arte's tvg-id: the tvg-id keeps the plain id.
    const collide = ['#EXTINF:-1 group-title="Culture",ARTE.FR', 'https://streams.example/other-arte.m3u8'];
    const reordered = [header, ...collide, ...entries.reverse().flat()].join('\n');
    const moved = join(dir, 'reordered.m3u');
    writeFileSync(moved, reordered);
    await importFixtures(store, { playlists: [{ location: moved }] });
    const after = new Map(store.listChannels({ limit: 100 }).map((c) => [c.name, c.id]));
    // Reversed, the backup entry comes first and names the channel; its id stays.
    expect(after.get('BBC One HD (backup)')).toBe(before.get('BBC One HD'));
    before.delete('BBC One HD');
    for (const [name, id] of before) expect(after.get(name)).toBe(id);
    expect(after.get('ARTE.FR')).toMatch(/^mq-tv:arte\.fr-[0-9a-z]{6}$/);
  });
});

describe('sources that go bad keep what they served', () => {
  it.each([
    ['a guide that is an HTML page', 'guide', 'not-a-guide.xml', /root element is <html>/],
    ['a missing guide', 'guide', 'missing.xml', /failed: .*ENOENT|failed: .*not found|failed: .*cannot be read/],
    ['a missing playlist', 'playlist', 'missing.m3u', /failed: /],
  ] as const)('%s', async (_name, kind, file, reason) => {
    const { store, dir } = open();
    // The operator's source, under its own name, turns bad.
    const good = kind === 'guide' ? fixture('guide.xml') : fixture('channels.m3u');
    const location = join(dir, kind === 'guide' ? 'guide.xml' : 'channels.m3u');
    copyFileSync(good, location);
    const options = kind === 'guide' ? { guides: [{ location }] } : { playlists: [{ location }] };
    await importFixtures(store, options);
    const programmes = store.programmesAround('mq-tv:bbcone.uk-hd', NOW - 86_400_000, NOW + 86_400_000);
    if (existsSync(fixture(file))) copyFileSync(fixture(file), location);
    else rmSync(location);
    const result = await importFixtures(store, options);
    const source = result.sources.find((s) => s.location === location);
    expect(source).toMatchObject({ kind, outcome: 'kept', status: 'failed' });
    expect(source?.reason).toMatch(reason);
    expect(source?.message).toContain(`${kind} ${location}`);
    expect(source?.message).toContain('keeping the last good data');
    expect(store.countChannels()).toBe(8);
    expect(store.programmesAround('mq-tv:bbcone.uk-hd', NOW - 86_400_000, NOW + 86_400_000)).toEqual(programmes);
    expect(store.lastImport()?.status).toBe('ok');
    expect(store.sourceStates('livetv').find((s) => s.label === location)).toMatchObject({ outcome: 'kept' });
  });

  it('refuses group filters that leave no channel (its last good copy, filtered, leaves none either)', async () => {
    const { store } = open();
    await importFixtures(store);
    const error = await importFixtures(store, { includeGroups: ['No Such Group'] }).catch((e: unknown) => e);
    expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/channels\.m3u: no channel to serve \(none left after the group filters/);
    expect(store.countChannels()).toBe(8);
  });

  it('on a store imported before sources had states, refuses a bad source once, as it always did', async () => {
    const { store, dir } = open();
    const guide = join(dir, 'guide.xml');
    copyFileSync(fixture('guide.xml'), guide);
    await importFixtures(store, { guides: [{ location: guide }] });
    // What an earlier version left: the data, and no source state.
    const db = new Database(store.file);
    db.exec('DELETE FROM source_states');
    db.close();
    const version = store.dataVersion();
    copyFileSync(fixture('not-a-guide.xml'), guide);
    const error = await importFixtures(store, { guides: [{ location: guide }] }).catch((e: unknown) => e);
    expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      /guide .*guide\.xml failed: .*; nothing was imported \(this store has no last good copy of its sources yet\), the previous data is still served/,
    );
    expect(store.dataVersion()).toBe(version);
    // The next good import records the copies; from then on a bad guide is kept.
    copyFileSync(fixture('guide.xml'), guide);
    await importFixtures(store, { guides: [{ location: guide }] });
    copyFileSync(fixture('not-a-guide.xml'), guide);
    const kept = await importFixtures(store, { guides: [{ location: guide }] });
    expect(kept.sources.find((s) => s.location === guide)?.outcome).toBe('kept');
  });

  it('refuses the import when no playlist ever imported well', async () => {
    const { store } = open();
    const error = await importFixtures(store, { playlists: [{ location: fixture('missing.m3u') }] }).catch(
      (e: unknown) => e,
    );
    expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      /no playlist could be used: playlist .*missing\.m3u failed: .*contributes nothing/,
    );
    // A fresh store served nothing before: the message does not claim it still does.
    expect((error as Error).message).toMatch(/no live TV was imported before, so none is served$/);
    expect((error as Error).message).not.toMatch(/previous data/);
    expect(store.countChannels()).toBe(0);
  });

  it('stops at once when cancelled', async () => {
    const { store } = open();
    const controller = new AbortController();
    controller.abort();
    const error = await importFixtures(store, { signal: controller.signal }).catch((e: unknown) => e);
    expect(isMarqueeError(error, 'IMPORT_FAILED')).toBe(true);
    expect(store.countChannels()).toBe(0);
  });
});

describe('refresh with conditional requests', () => {
  it('imports nothing when no source changed, and everything when one did', async () => {
    const { store, dir } = open();
    const guide = join(dir, 'guide.xml');
    copyFileSync(fixture('guide.xml'), guide);
    const options = { ...FIXTURE_OPTIONS, guides: [{ location: guide }] };
    const first = await importLiveTv(store, options);
    const version = store.dataVersion();

    const again = await importLiveTv(store, { ...options, previous: first.state });
    expect(again.status).toBe('unchanged');
    expect(again.sources.map((s) => s.status)).toEqual(['unchanged', 'unchanged']);
    expect(again.counts.channels).toBe(8);
    expect(store.dataVersion()).toBe(version);

    writeFileSync(guide, readFileSync(guide, 'utf8').replace('Late News', 'Later News'));
    const changed = await importLiveTv(store, { ...options, previous: first.state });
    expect(changed.status).toBe('imported');
    // The playlist answered "not modified": its last good copy is read, not the file again.
    expect(changed.sources.map((s) => s.status)).toEqual(['unchanged', 'fetched']);
    const titles = store.programmesAround('mq-tv:bbcone.uk-hd', NOW - 86_400_000, NOW).map((p) => p.video.title);
    expect(titles).toContain('Later News');
  });
});

describe('guides named by the playlist header', () => {
  it('may not reach a private address unless the operator allows it, and their answers are never quoted', async () => {
    const { store, dir } = open();
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200).end('SECRET-INTERNAL-ADMIN-PAGE token=abc123 and more text');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const guideUrl = `http://127.0.0.1:${port}/admin`;
      const text = readFileSync(fixture('channels.m3u'), 'utf8').replace('#EXTM3U', `#EXTM3U url-tvg="${guideUrl}"`);
      const playlist = join(dir, 'named.m3u');
      writeFileSync(playlist, text);

      const refused = await importLiveTv(store, { playlists: [{ location: playlist }], now: NOW });
      expect(seen).toEqual([]);
      const guide = refused.sources.find((s) => s.kind === 'guide');
      expect(guide).toMatchObject({ outcome: 'none', namedBy: playlist });
      expect(guide?.message).toMatch(
        /127\.0\.0\.1 is a private or local address.*\(named by .*named\.m3u; list it in sources\.allowPrivate to allow it\)/,
      );

      // Allowed, the answer is read; it is not XMLTV, and the error does not quote it.
      const allowed = await importLiveTv(store, {
        playlists: [{ location: playlist }],
        now: NOW,
        allowPrivateSources: true,
      });
      expect(seen).toEqual(['/admin']);
      const message = allowed.sources.find((s) => s.kind === 'guide')?.message ?? '';
      expect(message).toMatch(/text before the first element \(\d+ characters\): not an XMLTV guide/);
      expect(JSON.stringify(allowed)).not.toMatch(/SECRET|abc123/);
      expect(JSON.stringify(store.lastImport())).not.toMatch(/SECRET|abc123/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('are read over HTTP when no guide is configured, conditionally on refresh', async () => {
    const { store, dir } = open();
    const body = readFileSync(fixture('guide.xml'));
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers['if-none-match'] ?? '-'}`);
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const guideUrl = `http://127.0.0.1:${port}/guide.xml`;
      const text = readFileSync(fixture('channels.m3u'), 'utf8').replace('#EXTM3U', `#EXTM3U x-tvg-url="${guideUrl}"`);
      const playlist = join(dir, 'with-header.m3u');
      writeFileSync(playlist, text);
      // The guide server is on 127.0.0.1, named by the playlist: the operator allows that address.
      const options = { playlists: [{ location: playlist }], now: NOW, allowPrivateSources: [guideUrl] };

      const first = await importLiveTv(store, options);
      expect(first.sources[1]).toMatchObject({
        kind: 'guide',
        location: guideUrl,
        namedBy: playlist,
        status: 'fetched',
      });
      expect(first.state.playlistGuides).toEqual([guideUrl]);
      expect(first.counts.matchedChannels).toBe(5);

      const second = await importLiveTv(store, { ...options, previous: first.state });
      expect(second.status).toBe('unchanged');
      expect(seen).toEqual(['/guide.xml -', '/guide.xml "v1"']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
