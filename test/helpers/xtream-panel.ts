/**
 * A fake Xtream Codes panel on 127.0.0.1, written from the API's public shape: `player_api.php`
 * (the account, and the actions get_live_categories, get_live_streams, get_vod_categories,
 * get_vod_streams, get_vod_info, get_series_categories, get_series, get_series_info,
 * get_short_epg) and `xmltv.php`. Its `state` can be changed between imports to answer the way
 * real panels do when they go wrong: numbers as strings, null lists, "" for missing, duplicate
 * ids, HTML pages with status 200, categories changing between calls, a wrong password, an
 * expired or disabled account, slowness, and a server that dies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';

export interface PanelState {
  username: string;
  password: string;
  status: string;
  /** Epoch seconds, or null for an account that never expires. */
  expDate: number | null;
  live: number;
  movies: number;
  series: number;
  /** Seasons × episodes of each series. */
  seasons: number;
  episodes: number;
  formats: string[];
  timezone: string;
  /** Numbers as strings, "" and null for missing values, duplicate ids, categories that change between calls. */
  sloppy: boolean;
  /** Actions (or `xmltv`) that answer an HTML page with status 200. */
  html: Set<string>;
  /** Actions (or `xmltv`) that answer HTTP 500. */
  fail: Set<string>;
  /** Actions that answer `null`. */
  nulls: Set<string>;
  /** Milliseconds before each answer. */
  delayMs: number;
  /** After this many more requests the server drops every connection without answering. */
  dieAfter?: number;
  /** The clock the guide is generated around (epoch ms). */
  now: number;
  /** Name prefix of the live channels (tests tell accounts apart by it). */
  channelPrefix: string;
  /**
   * Live streams as big panels list them (`full`: icon, EPG id, archive...), or `tiny`: only
   * `num`, `name`, `stream_id` and `category_id`, about 60 bytes each (300,000 in 17 MB).
   */
  liveShape: 'full' | 'tiny';
  /** tv_archive_duration (days) of the catch-up channels (every fifth). */
  archiveDays: number;
  /** Hours of programmes xmltv.php gives before now, and in all. */
  guideHoursBack: number;
  guideHours: number;
  /** Live channels xmltv.php lists (the first N; default: all of them). */
  guideChannels?: number;
}

export interface Panel {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://USER:PASS@127.0.0.1:PORT` */
  readonly account: string;
  readonly state: PanelState;
  /** Actions asked, in order (`account` for player_api.php without one, `xmltv`). */
  readonly asked: string[];
  close(): Promise<void>;
}

const LIVE_CATEGORIES = ['News', 'Sports', 'Kids', 'Movies', 'Music', 'Documentary', 'Entertainment', 'Regional'];
const VOD_CATEGORIES = ['Action', 'Comedy', 'Drama', 'Science Fiction', 'Documentary'];
const SERIES_CATEGORIES = ['Crime', 'Comedy Series', 'Drama Series'];
const HOUR = 3_600_000;

/** Starts a panel. @example const panel = await startPanel({ live: 300, movies: 2000, series: 200 }) */
export async function startPanel(options: Partial<PanelState> = {}): Promise<Panel> {
  const state: PanelState = {
    username: 'alice',
    password: 's3cret-pw',
    status: 'Active',
    expDate: Math.floor(Date.now() / 1000) + 365 * 86_400,
    live: 30,
    movies: 20,
    series: 5,
    seasons: 2,
    episodes: 3,
    formats: ['m3u8', 'ts', 'rtmp'],
    timezone: 'Europe/Berlin',
    sloppy: false,
    html: new Set(),
    fail: new Set(),
    nulls: new Set(),
    delayMs: 0,
    now: Date.now(),
    channelPrefix: 'Channel',
    liveShape: 'full',
    archiveDays: 3,
    guideHoursBack: 6,
    guideHours: 30,
    ...options,
  };
  const asked: string[] = [];
  let categoryCalls = 0;
  const server = createServer((req, res) => {
    if (state.dieAfter !== undefined) {
      if (state.dieAfter <= 0) {
        req.socket.destroy();
        return;
      }
      state.dieAfter--;
    }
    const answer = () => {
      try {
        handle(req, res);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    };
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://panel');
    const script = url.pathname.replace(/^\/+/, '');
    const q = url.searchParams;
    const action = script === 'xmltv.php' ? 'xmltv' : (q.get('action') ?? 'account');
    asked.push(action);
    if (state.html.has(action)) return send(res, 200, HTML, 'text/html');
    if (state.fail.has(action)) return send(res, 500, 'Internal Server Error', 'text/plain');
    const authed = q.get('username') === state.username && q.get('password') === state.password;
    if (script === 'xmltv.php') {
      if (!authed) return send(res, 401, '', 'text/plain');
      return send(res, 200, xmltv(), 'application/xml');
    }
    if (script !== 'player_api.php') return send(res, 404, 'not found', 'text/plain');
    if (!authed) return json(res, { user_info: { auth: 0 } });
    if (state.nulls.has(action)) return json(res, null);
    const s = state.sloppy;
    const n = (v: number) => (s ? String(v) : v);
    switch (action) {
      case 'account':
        return json(res, {
          user_info: {
            username: state.username,
            password: state.password,
            message: '',
            auth: 1,
            status: state.status,
            exp_date: state.expDate === null ? null : s ? String(state.expDate) : state.expDate,
            is_trial: '0',
            active_cons: '0',
            created_at: '1600000000',
            max_connections: '1',
            allowed_output_formats: state.formats,
          },
          server_info: {
            url: '127.0.0.1',
            port: String(port),
            https_port: '',
            server_protocol: 'http',
            rtmp_port: '',
            timezone: state.timezone,
            timestamp_now: Math.floor(state.now / 1000),
            time_now: '2026-01-01 00:00:00',
          },
        });
      case 'get_live_categories': {
        categoryCalls++;
        // Sloppy panels add a category between two calls (the streams list already names it).
        const names = s && categoryCalls > 1 ? [...LIVE_CATEGORIES, 'Added Later'] : LIVE_CATEGORIES;
        return json(res, categories(names, 1));
      }
      case 'get_vod_categories':
        return json(res, categories(VOD_CATEGORIES, 100));
      case 'get_series_categories':
        return json(res, categories(SERIES_CATEGORIES, 200));
      case 'get_live_streams': {
        if (state.liveShape === 'tiny') return send(res, 200, tinyLive(), 'application/json');
        const list = Array.from({ length: state.live }, (_, k) => liveStream(k + 1));
        if (s && list.length > 2) {
          list.push(liveStream(1)); // a duplicate id
          list.push({ ...liveStream(2), stream_id: '' }); // no id
          list.push(null as never); // not an object
          (list[2] as Record<string, unknown>).category_id = String(1 + LIVE_CATEGORIES.length); // "Added Later"
        }
        return json(res, list);
      }
      case 'get_vod_streams': {
        const list = Array.from({ length: state.movies }, (_, k) => vodStream(k + 1));
        if (s && list.length > 1) list.push(vodStream(1));
        return json(res, list);
      }
      case 'get_vod_info': {
        const i = Number(q.get('vod_id')) - 5000;
        if (!(i >= 1 && i <= state.movies)) return json(res, []);
        return json(res, {
          info: {
            movie_image: `http://127.0.0.1:${port}/poster/m${i}.jpg`,
            backdrop_path: s ? null : [`http://127.0.0.1:${port}/backdrop/m${i}.jpg`],
            plot: `The plot of film ${i}.`,
            cast: 'Ada Actor, Bo Actor',
            director: s ? '' : 'Cy Director',
            genre: i % 2 ? 'Drama / Comedy' : 'Action',
            releasedate: s && i % 3 === 0 ? '' : `20${String(10 + (i % 15)).padStart(2, '0')}-05-0${1 + (i % 9)}`,
            duration_secs: n(5400 + i),
            rating: s ? String((i % 9) + 1) : (i % 9) + 1,
          },
          movie_data: { stream_id: n(5000 + i), name: `Film ${i}`, container_extension: i % 2 ? 'mkv' : 'mp4' },
        });
      }
      case 'get_series': {
        const list = Array.from({ length: state.series }, (_, k) => seriesEntry(k + 1));
        return json(res, list);
      }
      case 'get_series_info': {
        const i = Number(q.get('series_id')) - 8000;
        if (!(i >= 1 && i <= state.series)) return json(res, { seasons: [], info: {}, episodes: [] });
        const episodes: Record<string, unknown[]> = {};
        for (let season = 1; season <= state.seasons; season++) {
          episodes[String(season)] = Array.from({ length: state.episodes }, (_, e) => ({
            id: String(i * 1000 + season * 100 + e + 1),
            episode_num: n(e + 1),
            title: `Show ${i} S${season}E${e + 1}`,
            container_extension: 'mp4',
            info: {
              plot: `Episode ${e + 1} of season ${season}.`,
              duration_secs: '2700',
              releasedate: '2020-01-0' + (e + 1),
            },
            season: n(season),
          }));
        }
        return json(res, {
          seasons: Array.from({ length: state.seasons }, (_, k) => ({ season_number: k + 1, name: `Season ${k + 1}` })),
          info: { name: `Show ${i}`, plot: `The story of show ${i}.`, genre: 'Crime', releaseDate: '2019-03-01' },
          episodes: s ? Object.values(episodes) : episodes,
        });
      }
      case 'get_short_epg': {
        const id = Number(q.get('stream_id')) - 1000;
        const listings = [];
        const start = Math.floor(state.now / HOUR) * HOUR - 2 * HOUR;
        for (let h = 0; h < 6; h++) {
          const from = start + h * HOUR;
          listings.push({
            id: String(h),
            epg_id: String(id),
            title: Buffer.from(`Short ${id} #${h}`).toString('base64'),
            lang: 'en',
            // Written in the panel's zone; only the timestamps are UTC.
            start: wall(from, state.timezone),
            end: wall(from + HOUR, state.timezone),
            description: Buffer.from(`About short ${id} #${h}`).toString('base64'),
            channel_id: `ch${id}.example`,
            ...(h % 2 === 0
              ? { start_timestamp: String(from / 1000), stop_timestamp: String((from + HOUR) / 1000) }
              : {}),
          });
        }
        return json(res, { epg_listings: listings });
      }
      default:
        return json(res, []);
    }
  }

  function categories(names: string[], first: number) {
    return names.map((name, k) => ({
      category_id: state.sloppy ? String(first + k) : first + k,
      category_name: name,
      parent_id: 0,
    }));
  }
  function liveStream(i: number): Record<string, unknown> {
    const s = state.sloppy;
    return {
      num: s ? String(i) : i,
      name: `${state.channelPrefix} ${i}`,
      stream_type: 'live',
      stream_id: s ? String(1000 + i) : 1000 + i,
      stream_icon: s && i % 4 === 0 ? null : s && i % 4 === 1 ? '' : `http://127.0.0.1:${port}/logo/${i}.png`,
      epg_channel_id: i % 10 === 0 ? (s ? '' : null) : `ch${i}.example`,
      added: '1600000000',
      category_id: s ? String(1 + (i % LIVE_CATEGORIES.length)) : 1 + (i % LIVE_CATEGORIES.length),
      custom_sid: '',
      tv_archive: i % 5 === 0 ? 1 : 0,
      direct_source: '',
      tv_archive_duration: i % 5 === 0 ? (s ? String(state.archiveDays) : state.archiveDays) : 0,
    };
  }
  /** The `tiny` list, written as text (300,000 objects would cost the test runner more than the text). */
  function tinyLive(): string {
    const parts: string[] = [];
    for (let i = 1; i <= state.live; i++)
      parts.push(`{"num":${i},"name":"${state.channelPrefix} ${i}","stream_id":${1000 + i},"category_id":"1"}`);
    return `[${parts.join(',')}]`;
  }
  function vodStream(i: number): Record<string, unknown> {
    const s = state.sloppy;
    return {
      num: i,
      name: `Film ${i}`,
      stream_type: 'movie',
      stream_id: s ? String(5000 + i) : 5000 + i,
      stream_icon: `http://127.0.0.1:${port}/poster/m${i}.jpg`,
      rating: s ? '' : 6.5,
      added: '1600000000',
      category_id: String(100 + (i % VOD_CATEGORIES.length)),
      container_extension: i % 2 ? 'mkv' : 'mp4',
      custom_sid: s ? null : '',
      direct_source: '',
    };
  }
  function seriesEntry(i: number): Record<string, unknown> {
    return {
      num: i,
      name: `Show ${i}`,
      series_id: state.sloppy ? String(8000 + i) : 8000 + i,
      cover: `http://127.0.0.1:${port}/cover/s${i}.jpg`,
      plot: `The story of show ${i}.`,
      cast: 'Di Detective',
      director: '',
      genre: 'Crime',
      releaseDate: '2019-03-01',
      last_modified: '1600000000',
      rating: '8',
      backdrop_path: [],
      category_id: String(200 + (i % SERIES_CATEGORIES.length)),
    };
  }
  function xmltv(): string {
    const start = Math.floor(state.now / HOUR) * HOUR - state.guideHoursBack * HOUR;
    let out = '<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="fake panel">\n';
    const listed = Math.min(state.live, state.guideChannels ?? state.live);
    for (let i = 1; i <= listed; i++) {
      if (i % 10 === 0) continue;
      out += `<channel id="ch${i}.example"><display-name>${state.channelPrefix} ${i}</display-name></channel>\n`;
    }
    for (let i = 1; i <= listed; i++) {
      if (i % 10 === 0) continue;
      for (let h = 0; h < state.guideHours; h++) {
        const from = start + h * HOUR;
        out += `<programme start="${formatXmltvTime(from)}" stop="${formatXmltvTime(from + HOUR)}" channel="ch${i}.example"><title>Show ${h} on ${i}</title></programme>\n`;
      }
    }
    return `${out}</tv>\n`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    get account() {
      return `http://${encodeURIComponent(state.username)}:${encodeURIComponent(state.password)}@127.0.0.1:${port}`;
    },
    state,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const HTML = '<!DOCTYPE html><html><head><title>Suspended</title></head><body>This panel is suspended.</body></html>';

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function json(res: ServerResponse, value: unknown): void {
  send(res, 200, JSON.stringify(value), 'application/json');
}

/** `YYYY-MM-DD HH:MM:SS` of instant `ms` on the wall clock of `zone`. */
export function wall(ms: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
