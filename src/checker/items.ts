import { resourceRoutes } from '../protocol/index.js';
import { ask, type Context } from './ask.js';
import type { ItemRef } from './catalogs.js';
import { clientStreamIssues } from './client-model.js';

/**
 * A sample of the items the catalogs showed, opened as a user would: the meta (details page,
 * all-or-nothing), then streams for the video the client plays (an episode of a series, the
 * channel itself for tv), then subtitles. A resource is asked only when the manifest routes
 * that id to this add-on; otherwise the client asks another add-on and so does the checker not.
 */

/** Characters `encodeURIComponent` leaves as they are or that add-ons often decode wrongly. */
const TRICKY_ID = /[^A-Za-z0-9:._~-]/;

/**
 * Up to `size` distinct items: first (up to half the sample) the ids with characters add-ons
 * often fail to decode (`!`, `&`, `+`, `(`, spaces), then in turn from each catalog.
 *
 * @example pickSample([[a, b], [c]], 2) // [a, c]
 */
export function pickSample(pools: ReadonlyArray<readonly ItemRef[]>, size: number): ItemRef[] {
  const out: ItemRef[] = [];
  const seen = new Set<string>();
  const take = (item: ItemRef) => {
    const key = `${item.type}\u0000${item.id}`;
    if (seen.has(key) || out.length >= size) return;
    seen.add(key);
    out.push(item);
  };
  const tricky = pools.flat().filter((item) => TRICKY_ID.test(item.id));
  for (const item of tricky.slice(0, Math.ceil(size / 2))) take(item);
  const longest = Math.max(0, ...pools.map((p) => p.length));
  for (let i = 0; i < longest && out.length < size; i++) {
    for (const pool of pools) {
      const item = pool[i];
      if (item !== undefined) take(item);
    }
  }
  return out;
}

/**
 * Request meta, streams and subtitles for each sampled item.
 *
 * @example await checkItems(ctx, pickSample(pools, 20));
 */
export async function checkItems(ctx: Context, sample: readonly ItemRef[]): Promise<void> {
  const elsewhere = { meta: 0, stream: 0 };
  const trickyFailed: string[] = [];
  await Promise.all(sample.map((ref) => checkItem(ctx, ref, elsewhere, trickyFailed)));
  for (const resource of ['meta', 'stream'] as const) {
    if (elsewhere[resource] === 0) continue;
    ctx.findings.add({
      check: resource,
      severity: 'info',
      rule: 'routing.elsewhere',
      path: '/manifest.json',
      message: `${elsewhere[resource]} of ${sample.length} sampled items have ids or types the manifest does not route to this add-on for ${resource}: not requested`,
      effect: 'the client asks other installed add-ons for them',
    });
  }
  if (trickyFailed.length > 0) {
    ctx.findings.add({
      check: 'meta',
      severity: 'info',
      rule: 'meta.id-characters',
      path: '/manifest.json',
      message: `the meta failed for ${trickyFailed.length} id(s) with characters such as ! & + ( ) or spaces (first: ${JSON.stringify(trickyFailed[0]!.slice(0, 60))}): the client sends ids encoded like encodeURIComponent; decode the path segment once, and do not read + as a space in ids`,
      effect: 'the details pages of these items show an error (see the meta errors above)',
    });
  }
}

async function checkItem(
  ctx: Context,
  ref: ItemRef,
  elsewhere: { meta: number; stream: number },
  trickyFailed: string[],
): Promise<void> {
  const { manifest } = ctx;
  let videoId: string | undefined = ref.type === 'series' ? seriesEpisodeGuess(ref.id) : ref.id;
  if (resourceRoutes(manifest, 'meta', ref.type, ref.id)) {
    const meta = await checkMeta(ctx, ref.type, ref.id, ref);
    if (meta === undefined) {
      if (TRICKY_ID.test(ref.id)) trickyFailed.push(ref.id);
    } else videoId = playedVideoId(ref, meta) ?? videoId;
  } else elsewhere.meta++;

  if (videoId === undefined) return; // a series without episodes: the client has nothing to play
  if (resourceRoutes(manifest, 'stream', ref.type, videoId)) await checkStreams(ctx, ref.type, videoId);
  else elsewhere.stream++;

  if (resourceRoutes(manifest, 'subtitles', ref.type, videoId)) {
    await ask(ctx, {
      check: 'subtitles',
      request: { resource: 'subtitles', type: ref.type, id: videoId, extra: [] },
      failure: 'the player shows no subtitles from this add-on',
    });
  }
}

/**
 * Ask a meta; returns it when the client shows it. With `expected`, a meta filed under another
 * id or type is a warning.
 *
 * @example const meta = await checkMeta(ctx, 'movie', 'tt1254207');
 */
export async function checkMeta(
  ctx: Context,
  type: string,
  id: string,
  expected?: ItemRef,
): Promise<Record<string, unknown> | undefined> {
  const answer = await ask(ctx, {
    check: 'meta',
    request: { resource: 'meta', type, id, extra: [] },
    failure: 'the details page of this item shows an error',
  });
  const meta = answer.body?.meta;
  if (answer.failed !== undefined || typeof meta !== 'object' || meta === null) return undefined;
  const record = meta as Record<string, unknown>;
  for (const field of ['id', 'type'] as const) {
    if (expected === undefined || record[field] === expected[field]) continue;
    ctx.findings.add({
      check: 'meta',
      severity: 'warning',
      rule: `meta.other-${field}`,
      path: answer.path,
      jsonPath: `$.meta.${field}`,
      message: `is ${JSON.stringify(String(record[field]).slice(0, 60))} but the catalog item and the request say ${JSON.stringify(expected[field].slice(0, 60))}`,
      effect:
        'the client shows the meta as answered, under the id it carries; library entries and progress are filed under that id',
    });
  }
  return record;
}

/**
 * The stream id of a series the add-on gives no meta for: an IMDb series plays `tt…:1:1`, the
 * form Cinemeta's episodes take; any other series id is not playable by itself.
 */
function seriesEpisodeGuess(id: string): string | undefined {
  return /^tt\d+$/.test(id) ? `${id}:1:1` : undefined;
}

/**
 * The id the client asks streams for: a series plays an episode (the first of season 1 or
 * later, else the first video), a channel plays itself (its videos are programmes), a movie its
 * defaultVideoId or itself. Undefined for a series without videos.
 */
function playedVideoId(ref: ItemRef, meta: Record<string, unknown>): string | undefined {
  const hints = (typeof meta.behaviorHints === 'object' && meta.behaviorHints) || {};
  const { defaultVideoId, hasScheduledVideos } = hints as Record<string, unknown>;
  if (ref.type === 'tv' || hasScheduledVideos === true) return ref.id;
  if (typeof defaultVideoId === 'string' && defaultVideoId !== '') return defaultVideoId;
  const videos = (Array.isArray(meta.videos) ? meta.videos : []).filter(
    (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && typeof v.id === 'string' && v.id !== '',
  );
  const episode = videos.find((v) => typeof v.season === 'number' && v.season >= 1) ?? videos[0];
  if (episode) return episode.id as string;
  return ref.type === 'series' ? seriesEpisodeGuess(ref.id) : ref.id;
}

/**
 * Ask streams for one id and check the streams the client keeps.
 *
 * @example await checkStreams(ctx, 'series', 'tt1748166:1:1');
 */
export async function checkStreams(ctx: Context, type: string, id: string, note = true): Promise<number> {
  const answer = await ask(ctx, {
    check: 'stream',
    request: { resource: 'stream', type, id, extra: [] },
    failure: 'the client shows an error instead of the streams of this add-on for this item',
  });
  if (!answer.body) return 0;
  const list = Array.isArray(answer.body.streams) ? answer.body.streams : [];
  if (list.length === 0 && note) {
    ctx.findings.add({
      check: 'stream',
      severity: 'info',
      rule: 'stream.none',
      path: answer.path,
      message: 'has no streams for an item of its own catalog',
      effect: 'the client lists no source from this add-on for it',
    });
  }
  let kept = 0;
  list.forEach((stream, i) => {
    if (clientStreamIssues(stream, '$').length > 0) return;
    kept++;
    const { url, behaviorHints } = stream as Record<string, unknown>;
    const hints = behaviorHints as Record<string, unknown> | undefined;
    if (typeof url === 'string' && url.startsWith('http:') && hints?.notWebReady !== true) {
      ctx.findings.add({
        check: 'stream',
        severity: 'warning',
        rule: 'stream.plain-http',
        path: answer.path,
        jsonPath: `$.streams[${i}].url`,
        message: 'is plain http without behaviorHints.notWebReady: true',
        effect:
          'Mixed Content (W3C): an https page such as Stremio Web cannot load it directly; notWebReady lets the client route it through its streaming server',
      });
    }
  });
  return kept;
}
