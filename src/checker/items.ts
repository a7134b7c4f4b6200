import { resourceRoutes, StreamSchema } from '../protocol/index.js';
import { ask, type Context, validItems } from './ask.js';
import type { ItemRef } from './catalogs.js';

/**
 * A sample of the items the catalogs showed, opened as a user would: the meta (details page,
 * all-or-nothing), then streams for the video the client plays (the episode of a series, the
 * channel itself for tv), then subtitles. A resource is asked only when the manifest routes
 * that id to this add-on; otherwise the client asks another add-on and so does the checker not.
 */

/**
 * Up to `size` distinct items, taken in turn from each catalog so every catalog is represented.
 *
 * @example pickSample([[a, b], [c]], 2) // [a, c]
 */
export function pickSample(pools: ReadonlyArray<readonly ItemRef[]>, size: number): ItemRef[] {
  const out: ItemRef[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...pools.map((p) => p.length));
  for (let i = 0; i < longest && out.length < size; i++) {
    for (const pool of pools) {
      const item = pool[i];
      if (item === undefined || out.length >= size) continue;
      const key = `${item.type}\u0000${item.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
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
  await Promise.all(sample.map((ref) => checkItem(ctx, ref, elsewhere)));
  for (const resource of ['meta', 'stream'] as const) {
    if (elsewhere[resource] === 0) continue;
    ctx.findings.add({
      check: resource,
      severity: 'info',
      path: '/manifest.json',
      message: `${elsewhere[resource]} of ${sample.length} sampled items have ids or types the manifest does not route to this add-on for ${resource}: not requested`,
      effect: 'the client asks other installed add-ons for them',
    });
  }
}

async function checkItem(ctx: Context, ref: ItemRef, elsewhere: { meta: number; stream: number }): Promise<void> {
  const { manifest, findings } = ctx;
  let videoId = ref.id;
  if (resourceRoutes(manifest, 'meta', ref.type, ref.id)) {
    const answer = await ask(ctx, {
      check: 'meta',
      request: { resource: 'meta', type: ref.type, id: ref.id, extra: [] },
      failure: 'the details page of this item shows an error',
    });
    const meta = answer.body?.meta;
    if (answer.bodyErrors === 0 && typeof meta === 'object' && meta !== null) {
      const record = meta as Record<string, unknown>;
      for (const field of ['id', 'type'] as const) {
        if (record[field] === ref[field]) continue;
        findings.add({
          check: 'meta',
          severity: 'warning',
          path: answer.path,
          jsonPath: `$.meta.${field}`,
          message: `is ${JSON.stringify(String(record[field]).slice(0, 60))} but the catalog item and the request say ${JSON.stringify(ref[field].slice(0, 60))}`,
          effect: 'the client files the details under another item: library entries, progress and streams do not match',
        });
      }
      videoId = playedVideoId(ref, record);
    }
  } else elsewhere.meta++;

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
 * The id the client asks streams for: a series plays an episode (its first video), a channel
 * plays itself (its videos are programmes), a movie its defaultVideoId or itself.
 */
function playedVideoId(ref: ItemRef, meta: Record<string, unknown>): string {
  const hints = (typeof meta.behaviorHints === 'object' && meta.behaviorHints) || {};
  const { defaultVideoId, hasScheduledVideos } = hints as Record<string, unknown>;
  if (ref.type === 'tv' || hasScheduledVideos === true) return ref.id;
  if (typeof defaultVideoId === 'string' && defaultVideoId !== '') return defaultVideoId;
  const first = Array.isArray(meta.videos) ? (meta.videos[0] as Record<string, unknown> | undefined) : undefined;
  return typeof first?.id === 'string' && first.id !== '' ? first.id : ref.id;
}

async function checkStreams(ctx: Context, type: string, id: string): Promise<void> {
  const answer = await ask(ctx, {
    check: 'stream',
    request: { resource: 'stream', type, id, extra: [] },
    failure: 'the client lists no source from this add-on for this item',
  });
  if (!answer.body) return;
  const list = Array.isArray(answer.body.streams) ? answer.body.streams : [];
  if (list.length === 0) {
    ctx.findings.add({
      check: 'stream',
      severity: 'info',
      path: answer.path,
      message: 'has no streams for an item of its own catalog',
      effect: 'the client lists no source from this add-on for it',
    });
  }
  list.forEach((stream, i) => {
    // Invalid streams are already errors (the client drops them); this rule is about the kept ones.
    const kept = validItems([stream], StreamSchema)[0];
    if (kept === undefined) return;
    const url = kept.url;
    const hints = kept.behaviorHints as Record<string, unknown> | undefined;
    if (typeof url === 'string' && url.startsWith('http:') && hints?.notWebReady !== true) {
      ctx.findings.add({
        check: 'stream',
        severity: 'warning',
        path: answer.path,
        jsonPath: `$.streams[${i}].url`,
        message: 'is plain http without behaviorHints.notWebReady: true',
        effect: 'Stremio Web (an https page) blocks mixed content and cannot play it directly',
      });
    }
  });
}
