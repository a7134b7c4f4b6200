/**
 * Catch-up from playlists, over real HTTP: channels in each catch-up mode (default, append,
 * shift, flussonic, xc), one without catch-up and one with a mode no player knows; a guide from
 * ten days back to tomorrow. A programme that started within its channel's archive carries the
 * stream that plays it from its start (exact URLs); one to come, one older than the archive, and
 * every programme of a channel without catch-up carry none. Catch-up channels keep their
 * programmes for the archive window, beyond the retention; the others do not.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLiveTv, type LiveTvImportResult } from '../src/livetv/index.js';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { type Served, serve, type TempStore, tempStore } from './fixtures/livetv/setup.js';

const NOW = Date.parse('2026-03-10T12:20:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The first programme of the guide: ten days back, on the hour. */
const FIRST = Date.parse('2026-02-28T00:00:00Z');
const enc = encodeURIComponent;

const PLAYLIST = `#EXTM3U
#EXTINF:-1 tvg-id="def.tv" catchup="default" catchup-days="7" catchup-source="https://arch.example/def/{Y}{m}{d}{H}{M}{S}-{duration}.m3u8?o={offset}",Default TV
https://live.example/def.m3u8
#EXTINF:-1 tvg-id="app.tv" catchup="append" catchup-days="2" catchup-source="?utc={utc}&end=\${end}",Append TV
https://live.example/app.m3u8?token=t1
#EXTINF:-1 tvg-id="shift.tv" catchup="shift" catchup-days="3",Shift TV
https://live.example/shift.m3u8
#EXTINF:-1 tvg-id="fs.tv" catchup="flussonic" catchup-days="1",Flussonic TV
https://fs.example/fs/mono.m3u8?token=t2
#EXTINF:-1 tvg-id="xc.tv" catchup="xc" catchup-days="7",Xtream TV
http://xc.example:8080/live/user/pass/42.ts
#EXTINF:-1 tvg-id="plain.tv",Plain TV
https://live.example/plain.m3u8
#EXTINF:-1 tvg-id="odd.tv" catchup="vod",Odd TV
https://live.example/odd.m3u8
`;

function guide(): string {
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n';
  const ids = ['def.tv', 'app.tv', 'shift.tv', 'fs.tv', 'xc.tv', 'plain.tv', 'odd.tv'];
  for (const id of ids) xml += `<channel id="${id}"><display-name>${id}</display-name></channel>\n`;
  for (const id of ids) {
    for (let at = FIRST; at < NOW + DAY; at += HOUR) {
      xml += `<programme start="${formatXmltvTime(at)}" stop="${formatXmltvTime(at + HOUR)}" channel="${id}"><title>${id} at ${new Date(at).toISOString()}</title></programme>\n`;
    }
  }
  return `${xml}</tv>\n`;
}

interface Video {
  id: string;
  startTime: string;
  streams?: { name: string; description: string; url: string }[];
}

let temp: TempStore;
let served: Served;
let result: LiveTvImportResult;

beforeAll(async () => {
  temp = tempStore();
  writeFileSync(join(temp.dir, 'tv.m3u'), PLAYLIST);
  writeFileSync(join(temp.dir, 'guide.xml'), guide());
  result = await importLiveTv(temp.store, {
    playlists: [{ location: join(temp.dir, 'tv.m3u') }],
    guides: [{ location: join(temp.dir, 'guide.xml') }],
    now: NOW,
  });
  served = await serve(temp.store, { now: () => NOW, metaHoursBack: 3 });
});
afterAll(async () => {
  await served.close();
  temp.cleanup();
});

async function day(date: string): Promise<Map<string, Video[]>> {
  const response = await served.get(`/catalog/tv/mq-tv-channels/date=${date}.json`);
  expect(response.status).toBe(200);
  const rows = response.json().metasDetailed as { id: string; videos: Video[] }[];
  return new Map(rows.map((r) => [r.id, r.videos]));
}

const at = (videos: Video[] | undefined, ms: number) => videos?.find((v) => Date.parse(v.startTime) === ms);
/** The programme that started two hours before now (10:00 UTC). */
const AIRED = Date.parse('2026-03-10T10:00:00Z');

describe('a programme that aired 2 hours ago, mode by mode', () => {
  it('plays from its start, with the exact URL of its mode', async () => {
    const today = await day('2026-03-10');
    const url = (id: string) => at(today.get(id), AIRED)?.streams?.map((s) => s.url);
    expect(url('mq-tv:def.tv')).toEqual(['https://arch.example/def/20260310100000-3600.m3u8?o=8400']);
    expect(url('mq-tv:app.tv')).toEqual(['https://live.example/app.m3u8?token=t1?utc=1773136800&end=1773140400']);
    expect(url('mq-tv:shift.tv')).toEqual(['https://live.example/shift.m3u8?utc=1773136800&lutc=1773145200']);
    expect(url('mq-tv:fs.tv')).toEqual(['https://fs.example/fs/mono-1773136800-3600.m3u8?token=t2']);
    expect(url('mq-tv:xc.tv')).toEqual(['http://xc.example:8080/timeshift/user/pass/60/2026-03-10:10-00/42.ts']);
    expect(url('mq-tv:plain.tv')).toBeUndefined();
    expect(url('mq-tv:odd.tv')).toBeUndefined();
    expect(at(today.get('mq-tv:def.tv'), AIRED)?.streams?.[0]).toEqual({
      name: 'Marquee',
      description: 'From the start (catch-up)',
      url: 'https://arch.example/def/20260310100000-3600.m3u8?o=8400',
    });
  });

  it('the same on the channel page and from the programme id', async () => {
    const meta = (await served.get(`/meta/tv/${enc('mq-tv:xc.tv')}.json`)).json().meta;
    const video = at(meta.videos, AIRED)!;
    expect(video.streams?.map((s) => s.url)).toEqual([
      'http://xc.example:8080/timeshift/user/pass/60/2026-03-10:10-00/42.ts',
    ]);
    const response = await served.get(`/stream/tv/${enc(video.id)}.json`);
    expect(response.json().streams.map((s: { url: string }) => s.url)).toEqual([
      'http://xc.example:8080/timeshift/user/pass/60/2026-03-10:10-00/42.ts',
    ]);
    // A programme id of a channel without catch-up, or of no programme: nothing.
    const plain = (await served.get(`/stream/tv/${enc('mq-tv:plain.tv:epg:2026-03-10T10:00:00.000Z')}.json`)).json();
    expect(plain.streams).toEqual([]);
    const none = (await served.get(`/stream/tv/${enc('mq-tv:xc.tv:epg:2026-03-10T10:30:00.000Z')}.json`)).json();
    expect(none.streams).toEqual([]);
  });
});

describe('which programmes carry catch-up', () => {
  it('the one on air does; those to come do not', async () => {
    const today = await day('2026-03-10');
    const xc = today.get('mq-tv:xc.tv')!;
    expect(at(xc, Date.parse('2026-03-10T12:00:00Z'))?.streams).toHaveLength(1);
    expect(at(xc, Date.parse('2026-03-10T13:00:00Z'))?.streams).toBeUndefined();
    expect(xc.filter((v) => Date.parse(v.startTime) > NOW).every((v) => v.streams === undefined)).toBe(true);
  });

  it('each channel within its own window: 1, 2, 3 and 7 days', async () => {
    const back = async (days: number, id: string) => {
      const start = NOW - days * DAY - 20 * 60_000 + HOUR; // the hour after, inside the window
      return at((await day(new Date(start).toISOString().slice(0, 10))).get(id), start)?.streams?.length ?? 0;
    };
    expect(await back(1, 'mq-tv:fs.tv')).toBe(1);
    expect(await back(2, 'mq-tv:app.tv')).toBe(1);
    expect(await back(3, 'mq-tv:shift.tv')).toBe(1);
    expect(await back(6, 'mq-tv:xc.tv')).toBe(1);
    // Beyond the window: still in the guide (within the retention or another channel's archive), no stream.
    const twoDaysBack = at((await day('2026-03-08')).get('mq-tv:fs.tv'), Date.parse('2026-03-08T13:00:00Z'));
    expect(twoDaysBack).toBeDefined();
    expect(twoDaysBack?.streams).toBeUndefined();
  });

  it('catch-up channels keep their programmes for their archive, the others for the retention (2 days)', async () => {
    const sixDaysBack = await day('2026-03-04');
    expect(sixDaysBack.get('mq-tv:xc.tv')).toHaveLength(24);
    expect(sixDaysBack.get('mq-tv:def.tv')).toHaveLength(24);
    expect(sixDaysBack.get('mq-tv:plain.tv')).toEqual([]);
    expect(sixDaysBack.get('mq-tv:shift.tv')).toEqual([]);
    // Nine days back is older than any archive: nothing kept.
    const nineDaysBack = await day('2026-03-01');
    for (const videos of nineDaysBack.values()) expect(videos).toEqual([]);
    expect(result.dropped.past).toBeGreaterThan(0);
  });
});

describe('the import report', () => {
  it('names the entry whose catch-up mode no player knows, with file and line', () => {
    const warning = result.warnings.find((w) => w.message.includes('"vod"'));
    expect(warning).toMatchObject({ line: 14, message: expect.stringMatching(/catchup mode "vod" is not supported/) });
    expect(warning?.source).toMatch(/tv\.m3u$/);
  });
});
