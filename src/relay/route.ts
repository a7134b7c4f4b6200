/**
 * The relay's HTTP face, under `/relay/{token}/` on the add-on's own origin (server/ routes there):
 *
 * - `index.m3u8`: the master playlist. Each request is a new viewer, whose id is in the path of
 *   every URI it lists (`v…/t0.m3u8`), so viewers are counted and leave when they stop asking.
 * - `v…/t{n}.m3u8`: track n's live media playlist; `v…/t{n}/{seq}.{ext}` its segments;
 *   `v…/k{n}.key`, `v…/m{n}.mp4` keys and init segments.
 * - `live.ts`: the stream as one continuous MPEG-TS, from the last keyframe.
 * - `file.mp4`: an MP4 file passed through as it is, ranges and all (passthrough.ts).
 *
 * A token that does not verify is refused before anything is looked up or fetched. Answers carry
 * CORS (players on another origin) and never an upstream URL: every URI is the relay's own.
 */
import { randomBytes } from 'node:crypto';
import { isMarqueeError } from '../errors.js';
import type { CoreRequest, CoreResponse } from '../server/index.js';
import { continuous } from './continuous.js';
import { reasonOf } from './fetch.js';
import { passThrough } from './passthrough.js';
import type { RelayCore } from './relay.js';
import type { Session } from './session.js';
import { LimitRefusal } from './slots.js';
import type { Segment } from './track.js';

export const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
/** How long a playlist request waits for the first segment of a channel being opened. */
const READY_MS = 9_000;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'content-length, content-type',
  'x-content-type-options': 'nosniff',
} as const;

function text(status: number, body: string, extra: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: {
      ...CORS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
      ...extra,
    },
    body,
  };
}

function playlist(body: string): CoreResponse {
  return {
    status: 200,
    headers: {
      ...CORS,
      'content-type': PLAYLIST_TYPE,
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  };
}

function bytes(contentType: string, body: Buffer, cache: string): CoreResponse {
  return {
    status: 200,
    headers: { ...CORS, 'content-type': contentType, 'cache-control': cache, 'content-length': String(body.length) },
    body,
  };
}

/** Answers a refusal: a limit is 503 naming it, anything else the reason without a URL. */
function refused(error: unknown): CoreResponse {
  if (error instanceof LimitRefusal) {
    return text(503, `This channel cannot be relayed now: ${error.message}.\n`, { 'retry-after': '30' });
  }
  const timeout = isMarqueeError(error, 'SOURCE_TIMEOUT');
  return text(timeout ? 504 : 502, `No stream of this channel could be opened: ${reasonOf(error)}\n`);
}

const VIEWER = /^v[a-z0-9]{6,16}$/;
/** The paths under a token (checked before a session is opened for them). */
const KNOWN =
  /^(?:index\.m3u8|live\.ts|file\.mp4|v[a-z0-9]{6,16}\/(?:t\d{1,3}\.m3u8|t\d{1,3}\/\d{1,15}\.[a-z0-9]{2,6}|[km]\d{1,4}\.(?:key|mp4)))$/;
const newViewer = () => `v${randomBytes(8).toString('hex').slice(0, 12)}`;

export async function routeRelay(core: RelayCore, request: CoreRequest, path: string): Promise<CoreResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return text(405, 'Method not allowed\n', { allow: 'GET, HEAD, OPTIONS' });
  }
  const match = /^\/([A-Za-z0-9_.-]{1,2000})\/(.{1,200})$/.exec(path);
  if (match === null) return text(404, 'Not found\n');
  const opened = core.options.tokens.open(match[1]!);
  // Before any lookup or fetch: a link that was changed is not a stream of ours.
  if (opened === undefined) {
    return text(403, 'This relay link is not valid: it was changed, or made with a key no longer in the key ring.\n');
  }
  const rest = match[2]!;
  if (!KNOWN.test(rest)) return text(404, 'Not found\n');
  const target = core.options.resolve(opened.payload, opened.digest);
  if (target === undefined) return text(404, 'This channel or stream is no longer served.\n');

  if (rest === 'file.mp4') {
    try {
      return await passThrough(
        request,
        target,
        core.options.policy ?? {},
        core.limits.stallMs,
        () => core.hold(target),
        CORS,
      );
    } catch (error) {
      return refused(error);
    }
  }

  let session: Session;
  try {
    session = await core.session(target);
  } catch (error) {
    return refused(error);
  }

  if (rest === 'index.m3u8') {
    try {
      core.admit(session);
    } catch (error) {
      return refused(error);
    }
    const viewer = newViewer();
    session.touch(viewer);
    if (!(await session.ready(READY_MS))) return notReady(session);
    return playlist(session.master(viewer));
  }
  if (rest === 'live.ts') return live(core, session);

  const slash = rest.indexOf('/');
  const viewer = rest.slice(0, slash);
  const item = rest.slice(slash + 1);
  if (slash === -1 || !VIEWER.test(viewer)) return text(404, 'Not found\n');
  if (!session.viewers.hls.has(viewer)) {
    // A viewer the relay does not know (it was quiet too long, or the server restarted) joins again.
    try {
      core.admit(session);
    } catch (error) {
      return refused(error);
    }
  }
  session.touch(viewer);

  const media = /^t(\d{1,3})\.m3u8$/.exec(item);
  if (media) {
    const track = session.tracks[Number(media[1])];
    if (track === undefined) return text(404, 'No such track\n');
    track.askedAt = Date.now();
    if (track.listed().length === 0 && !(await session.ready(READY_MS))) return notReady(session);
    const n = media[1];
    return playlist(track.playlist((s) => `t${n}/${s.seq}.${s.ext}`));
  }
  const part = /^t(\d{1,3})\/(\d{1,15})\.[a-z0-9]{2,6}$/.exec(item);
  if (part) {
    const track = session.tracks[Number(part[1])];
    const segment = track?.find(Number(part[2]));
    if (track === undefined || segment === undefined || !segment.complete) return text(404, 'No such segment\n');
    track.askedAt = Date.now();
    if (segment.load !== undefined && segment.chunks.length === 0) await segment.load();
    if (segment.chunks.length === 0) return text(502, 'The segment could not be fetched upstream.\n');
    return segmentResponse(session, segment);
  }
  const resource = /^([km])(\d{1,4})\.(key|mp4)$/.exec(item);
  if (resource) {
    const kind = resource[1] === 'k' ? 'key' : 'map';
    const loaded = session.resource(kind, Number(resource[2]));
    if (loaded === undefined) return text(404, 'Not found\n');
    try {
      const body = await loaded;
      session.bytesOut += body.length;
      return bytes(kind === 'key' ? 'application/octet-stream' : 'video/mp4', body, 'private, max-age=300');
    } catch (error) {
      return text(502, `It could not be fetched upstream: ${reasonOf(error)}\n`);
    }
  }
  return text(404, 'Not found\n');
}

function notReady(session: Session): CoreResponse {
  if (session.error !== undefined) return refused(session.error);
  return text(504, 'The channel opened, but sent nothing playable yet; try again.\n', { 'retry-after': '2' });
}

/** A segment's bytes as they are held (no copy), counted as they go out. */
function segmentResponse(session: Session, segment: Segment): CoreResponse {
  const chunks = [...segment.chunks];
  const length = chunks.reduce((n, c) => n + c.length, 0);
  return {
    status: 200,
    headers: {
      ...CORS,
      'content-type': segment.contentType,
      // The sequence numbers of a session are its own (they start from the clock): safe to keep a while.
      'cache-control': 'private, max-age=60',
      'content-length': String(length),
    },
    body: '',
    stream: {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          session.bytesOut += chunk.length;
          yield chunk;
        }
      },
    },
  };
}

/** The continuous MPEG-TS: from the last keyframe, as long as the client reads. */
async function live(core: RelayCore, session: Session): Promise<CoreResponse> {
  try {
    core.admit(session);
  } catch (error) {
    return refused(error);
  }
  if (!(await session.ready(READY_MS))) return notReady(session);
  const track = session.tracks[0]!;
  const newest = track.newest();
  if (session.kind !== 'ts' && (newest?.ext !== 'ts' || newest.keyTag !== undefined)) {
    return text(415, 'This channel is not a plain MPEG-TS stream: play its HLS link (index.m3u8).\n');
  }
  return {
    status: 200,
    headers: { ...CORS, 'content-type': 'video/mp2t', 'cache-control': 'no-store' },
    body: '',
    stream: {
      async *[Symbol.asyncIterator]() {
        session.viewers.connected(1);
        try {
          yield* continuous(track, {
            onBytes: (n) => {
              session.bytesOut += n;
            },
          });
        } finally {
          session.viewers.connected(-1);
        }
      },
    },
  };
}
