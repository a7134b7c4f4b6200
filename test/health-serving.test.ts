/**
 * What stored stream health changes in the answers, over HTTP: the fixture channels with their
 * guide, health written as a pass writes it. Streams are reordered and marked (or dropped), dead
 * channels left out of every list (plain, a group, a guide day, a name search, the user's groups
 * setting) and still answering their meta; a stream never checked is served as before, and the
 * answers follow each pass (the data version changes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_OPTIONS,
  importFixtures,
  type Served,
  serve,
  type TempStore,
  tempStore,
} from './fixtures/livetv/setup.js';

const CATALOG = '/catalog/tv/mq-tv-channels';
const enc = encodeURIComponent;
const BBC = 'mq-tv:bbcone.uk-hd';
const BBC_MAIN = 'https://streams.example/bbc1-hd.m3u8';
const BBC_BACKUP = 'http://backup.example/bbc1.ts';
const LOCAL = 'https://streams.example/local.m3u8';

let temp: TempStore;
let before: { streams: unknown[] };
let plain: Served;

async function pass(results: [url: string, state: 'ok' | 'dead' | 'timeout'][], at: number): Promise<void> {
  await temp.store.recordHealthPass({
    startedAt: at,
    results: results.map(([url, state]) => ({ url, state, detail: state === 'ok' ? 'MPEG-TS' : 'HTTP 404', at })),
    report: {},
  });
}

const ids = (body: { metas?: { id: string }[]; metasDetailed?: { id: string }[] }) =>
  (body.metas ?? body.metasDetailed ?? []).map((m) => m.id);

beforeAll(async () => {
  temp = tempStore();
  await importFixtures(temp.store, FIXTURE_OPTIONS);
  plain = await serve(temp.store, { now: () => Date.parse('2026-03-01T15:00:00Z') });
  before = (await plain.get(`/stream/tv/${enc(BBC)}.json`)).json();
});
afterAll(async () => {
  await plain.close();
  temp.cleanup();
});

describe('streams', () => {
  it('are served as before while never checked', async () => {
    await pass([[LOCAL, 'ok']], Date.parse('2026-03-01T13:00:00Z'));
    expect((await plain.get(`/stream/tv/${enc(BBC)}.json`)).json()).toEqual(before);
  });

  it('put a stream whose last check failed after the others, and mark it once it is offline', async () => {
    const first = Date.parse('2026-03-01T14:02:00Z');
    await pass(
      [
        [BBC_MAIN, 'dead'],
        [BBC_BACKUP, 'ok'],
      ],
      first,
    );
    const once = (await plain.get(`/stream/tv/${enc(BBC)}.json`)).json();
    expect(once.streams.map((s: { url: string }) => s.url)).toEqual([BBC_BACKUP, BBC_MAIN]);
    // One failure is not offline yet (failuresBeforeDead 2): not marked.
    expect(once.streams[1].description).toBe('BBC One HD (2/2)');
    await pass([[BBC_MAIN, 'timeout']], Date.parse('2026-03-01T14:40:00Z'));
    const twice = (await plain.get(`/stream/tv/${enc(BBC)}.json`)).json();
    expect(twice.streams[1]).toEqual({
      name: 'Marquee',
      description: 'BBC One HD (2/2)\noffline since 14:02 UTC',
      url: BBC_MAIN,
    });
    expect(twice.streams[0].behaviorHints.proxyHeaders.request.Referer).toBe('https://portal.example/');
  });

  it('leave offline streams out with hideDead', async () => {
    const hiding = await serve(temp.store, {
      now: () => Date.parse('2026-03-02T15:00:00Z'),
      health: { hideDead: true },
    });
    try {
      const body = (await hiding.get(`/stream/tv/${enc(BBC)}.json`)).json();
      expect(body.streams.map((s: { url: string; description: string }) => [s.url, s.description])).toEqual([
        [BBC_BACKUP, 'BBC One HD (backup)'],
      ]);
    } finally {
      await hiding.close();
    }
    // A day later the mark names the day.
    const later = await serve(temp.store, { now: () => Date.parse('2026-03-02T15:00:00Z') });
    try {
      const body = (await later.get(`/stream/tv/${enc(BBC)}.json`)).json();
      expect(body.streams[1].description).toBe('BBC One HD (2/2)\noffline since 1 Mar 14:02 UTC');
    } finally {
      await later.close();
    }
  });
});

describe('hideDeadChannels', () => {
  let hiding: Served;
  beforeAll(async () => {
    // Both BBC streams offline (the backup failed twice too); My Local has one stream, offline.
    await pass(
      [
        [BBC_BACKUP, 'dead'],
        [LOCAL, 'dead'],
      ],
      Date.parse('2026-03-01T15:00:00Z'),
    );
    await pass(
      [
        [BBC_BACKUP, 'dead'],
        [LOCAL, 'dead'],
      ],
      Date.parse('2026-03-01T15:30:00Z'),
    );
    hiding = await serve(
      temp.store,
      { now: () => Date.parse('2026-03-01T16:00:00Z'), health: { hideDeadChannels: true } },
      [{ key: 'groups', type: 'text', title: 'Groups to show' }],
    );
  });
  afterAll(() => hiding.close());

  it('leaves channels whose every stream is offline out of lists, groups, guide days and search', async () => {
    const all = ids((await plain.get(`${CATALOG}.json`)).json());
    const shown = ids((await hiding.get(`${CATALOG}.json`)).json());
    expect(all).toContain(BBC);
    expect(shown).toEqual(all.filter((id) => id !== BBC && id !== 'mq-tv:local.tv'));
    expect(ids((await hiding.get(`${CATALOG}/genre=${enc('News & Talk')}.json`)).json())).toEqual([]);
    const day = ids((await hiding.get(`${CATALOG}/date=2026-03-01.json`)).json());
    expect(day).toEqual(shown);
    expect(ids((await hiding.get(`${CATALOG}/search=BBC.json`)).json())).toEqual([]);
    expect(ids((await hiding.get(`${CATALOG}/date=2026-03-01&search=local.json`)).json())).toEqual([]);
    // The user's groups setting is served from the in-memory list: the same rule.
    const config = `/${enc(JSON.stringify({ groups: 'Local, News & Talk' }))}`;
    expect(ids((await hiding.get(`${config}${CATALOG}.json`)).json())).toEqual(['mq-tv:nothing.xx']);
    // skip counts the channels shown: the page after the end is empty.
    expect(ids((await hiding.get(`${CATALOG}/skip=${shown.length}.json`)).json())).toEqual([]);
  });

  it("still answers a hidden channel's meta and streams (installed favourites keep working)", async () => {
    const meta = (await hiding.get(`/meta/tv/${enc(BBC)}.json`)).json();
    expect(meta.meta.name).toBe('BBC One HD');
    const streams = (await hiding.get(`/stream/tv/${enc(BBC)}.json`)).json();
    expect(streams.streams).toHaveLength(2);
  });

  it('shows a channel again once one of its streams plays (the next pass)', async () => {
    await pass([[LOCAL, 'ok']], Date.parse('2026-03-01T16:30:00Z'));
    expect(ids((await hiding.get(`${CATALOG}.json`)).json())).toContain('mq-tv:local.tv');
  });

  it('hides nothing without the setting', async () => {
    expect(ids((await plain.get(`${CATALOG}/search=BBC.json`)).json())).toEqual([BBC]);
  });
});
