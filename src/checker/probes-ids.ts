import { resourceRoutes } from '../protocol/index.js';
import type { Context } from './ask.js';
import { ask } from './ask.js';
import { checkMeta, checkStreams } from './items.js';

/**
 * Meta and stream requests that do not come from a catalog: what the client asks when another
 * add-on (Cinemeta, a catalog add-on) shows an item, so a stream-only or meta-only add-on is
 * checked too. Three kinds of ids:
 * - an id the add-on cannot know (`{prefix}marquee-check-unknown`, `tt0000000`), per routed type: the spec
 *   wants `{ streams: [] }`; the report says what the client shows for the answer given;
 * - well-known IMDb ids when the add-on routes `tt` ids (or every id) for movies or series:
 *   Big Buck Bunny (tt1254207) and Pioneer One (tt1748166, episode tt1748166:1:1), the ids the
 *   official SDK's examples serve; the add-on may not have them, so a failure is a warning;
 * - ids the user gives (`--id TYPE:ID`): items that exist, checked like catalog items.
 */

/** Well-known ids per type: the item, and the video the client asks streams for. */
const WELL_KNOWN: Readonly<Record<string, { id: string; video: string }>> = {
  movie: { id: 'tt1254207', video: 'tt1254207' },
  series: { id: 'tt1748166', video: 'tt1748166:1:1' },
};

export interface ProbeId {
  readonly type: string;
  readonly id: string;
}

/**
 * Probe unknown ids, well-known ids and the user's ids.
 *
 * @example await checkProbeIds(ctx, [{ type: 'movie', id: 'tt0111161' }]);
 */
export async function checkProbeIds(ctx: Context, userIds: readonly ProbeId[]): Promise<void> {
  const { manifest } = ctx;
  const jobs: Array<Promise<unknown>> = [];
  for (const resource of ['meta', 'stream'] as const) {
    for (const type of routedTypes(ctx, resource)) {
      const prefix = prefixFor(ctx, resource, type);
      // An IMDb-only add-on may refuse ids that are not tt + digits; tt0000000 is no title.
      const id = prefix === 'tt' ? 'tt0000000' : `${prefix}marquee-check-unknown`;
      if (resourceRoutes(manifest, resource, type, id)) jobs.push(probeUnknown(ctx, resource, type, id));
    }
  }
  for (const [type, known] of Object.entries(WELL_KNOWN)) {
    if (resourceRoutes(manifest, 'meta', type, known.id)) jobs.push(probeKnown(ctx, 'meta', type, known.id));
    if (resourceRoutes(manifest, 'stream', type, known.video)) jobs.push(probeKnown(ctx, 'stream', type, known.video));
  }
  for (const { type, id } of userIds) jobs.push(checkUserId(ctx, type, id));
  await Promise.all(jobs);
}

/** Types the manifest routes this resource for, with any id. */
function routedTypes(ctx: Context, resource: string): string[] {
  const types = new Set<string>();
  for (const entry of ctx.manifest.resources) {
    if (typeof entry === 'string' && entry === resource) for (const t of ctx.manifest.types) types.add(t);
    if (typeof entry === 'object' && entry.name === resource) for (const t of entry.types ?? []) types.add(t);
  }
  return [...types];
}

/** An id prefix the resource routes for the type ('' when it routes every id). */
function prefixFor(ctx: Context, resource: string, type: string): string {
  const prefixes = [
    ...ctx.manifest.resources.flatMap((e) =>
      typeof e === 'object' && e.name === resource && e.types?.includes(type) ? (e.idPrefixes ?? ['']) : [],
    ),
    ...(ctx.manifest.resources.includes(resource) ? (ctx.manifest.idPrefixes ?? ['']) : []),
  ];
  return prefixes[0] ?? '';
}

const STREAM_FAILURE =
  'spec: "Returns { streams: [] } when there is nothing for the id"; the client shows this add-on\'s streams for the id as an error';
const META_FAILURE =
  "the client shows an error for this add-on's meta of the id (another add-on's meta when one has it)";

/** An id no add-on has: streams must be `{ streams: [] }`; a meta may be 404 (a note), not a 500 or `{ meta: null }`. */
async function probeUnknown(ctx: Context, resource: 'meta' | 'stream', type: string, id: string): Promise<void> {
  await ask(ctx, {
    check: resource,
    request: { resource, type, id, extra: [] },
    failure: resource === 'stream' ? STREAM_FAILURE : META_FAILURE,
    // A 404 for a meta nobody has is a fine answer; a 500 or `{ meta: null }` is not.
    failureSeverity: resource === 'stream' ? 'warning' : (status) => (status === 404 ? undefined : 'warning'),
    label: 'an id the add-on cannot have',
  });
}

/** A well-known id the add-on may not have: its answer is checked, its failure is a warning. */
async function probeKnown(ctx: Context, resource: 'meta' | 'stream', type: string, id: string): Promise<void> {
  await ask(ctx, {
    check: resource,
    request: { resource, type, id, extra: [] },
    failure: resource === 'stream' ? STREAM_FAILURE : META_FAILURE,
    failureSeverity: (status) => (status === 404 && resource === 'meta' ? undefined : 'warning'),
    label: `the well-known id ${id}`,
  });
}

async function checkUserId(ctx: Context, type: string, id: string): Promise<void> {
  const ref = { type, id, name: '' };
  let video = id;
  if (resourceRoutes(ctx.manifest, 'meta', type, id)) {
    const meta = await checkMeta(ctx, type, id, { ...ref, name: '' });
    const videos = Array.isArray(meta?.videos) ? (meta.videos as Array<Record<string, unknown>>) : [];
    const episode = videos.find((v) => typeof v?.season === 'number' && v.season >= 1) ?? videos[0];
    if (type === 'series' && typeof episode?.id === 'string') video = episode.id;
  }
  if (resourceRoutes(ctx.manifest, 'stream', type, video)) await checkStreams(ctx, type, video);
  else if (!resourceRoutes(ctx.manifest, 'meta', type, id)) {
    ctx.findings.add({
      check: 'crawl',
      severity: 'info',
      rule: 'probe.not-routed',
      path: '/manifest.json',
      message: `--id ${type}:${id}: the manifest routes neither meta nor stream for this type and id to the add-on`,
      effect: 'the client never asks this add-on about it',
    });
  }
}
