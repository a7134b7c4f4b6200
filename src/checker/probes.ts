import { formatAddonPath } from '../protocol/index.js';
import { ask, type Context } from './ask.js';
import { cacheFindings } from './http-rules.js';

/**
 * Requests that are not part of browsing a catalog: a path the add-on does not declare (it must
 * answer 404, spec "Errors") and the add-on catalogs it lists.
 */

/** The catalog id of the 404 probe: no add-on declares it. */
export const UNDECLARED_CATALOG_ID = 'marquee-check-nonexistent';

/**
 * GET /catalog/{type}/marquee-check-nonexistent.json and expect 404.
 *
 * @example await checkNotFound(ctx);
 */
export async function checkNotFound(ctx: Context): Promise<void> {
  const { manifest, findings } = ctx;
  const type = manifest.catalogs[0]?.type ?? manifest.types[0] ?? 'movie';
  const path = formatAddonPath({ resource: 'catalog', type, id: UNDECLARED_CATALOG_ID, extra: [] });
  const exchange = await ctx.requester.get(path);
  if (exchange.outcome === 'skipped') return;
  findings.ran('not-found');
  if (exchange.outcome !== 'response') {
    findings.add({
      check: 'not-found',
      severity: 'warning',
      path,
      message: `an undeclared catalog gets no answer: ${exchange.reason}`,
      effect: 'requests for paths the add-on does not serve hang or fail instead of ending quickly with 404',
    });
    return;
  }
  // A long-cached 404 outlives the day the catalog is added, so the error cache rule applies here too.
  if (exchange.status !== 200) for (const f of cacheFindings(exchange, 'data')) findings.add(f);
  if (exchange.status === 404) return;
  const served = exchange.status === 200;
  // A warning either way: the client asks only for what the manifest declares, so it loses
  // nothing here (the official SDK answers 200 to anything, and its add-ons work).
  findings.add({
    check: 'not-found',
    severity: 'warning',
    path,
    message: `a catalog the manifest does not declare answers HTTP ${exchange.status}: answer 404 for paths the add-on does not serve`,
    effect: served
      ? 'spec ("Errors"): unknown paths answer 404; caches and monitors take a mistyped or removed catalog for a working, empty one'
      : 'spec ("Errors"): unknown paths answer 404; monitors read this as a server failure rather than "not here"',
  });
}

/**
 * GET each declared add-on catalog.
 *
 * @example await checkAddonCatalogs(ctx);
 */
export async function checkAddonCatalogs(ctx: Context): Promise<void> {
  await Promise.all(
    (ctx.manifest.addonCatalogs ?? []).map((entry) =>
      ask(ctx, {
        check: 'addon-catalog',
        request: { resource: 'addon_catalog', type: entry.type, id: entry.id, extra: [] },
        failure: 'the client shows an error instead of the list of add-ons',
      }),
    ),
  );
}

/** The id part of the unknown-id probes: no add-on has an item of this id. */
export const UNKNOWN_ID = 'marquee-check-unknown';

/** Ids every add-on of a prefix has, to ask a stream-only or meta-only add-on something real. */
const WELL_KNOWN: Readonly<Record<string, string>> = {
  tt: 'tt0111161',
  'kitsu:': 'kitsu:1',
  'tmdb:': 'tmdb:278',
};

/** The (type, id prefix) pairs the manifest routes `resource` for; '' when any id is routed. */
function routedPrefixes(ctx: Context, resource: 'meta' | 'stream'): Array<{ type: string; prefix: string }> {
  const { manifest } = ctx;
  const out: Array<{ type: string; prefix: string }> = [];
  for (const entry of manifest.resources) {
    const name = typeof entry === 'string' ? entry : entry.name;
    if (name !== resource) continue;
    const types = typeof entry === 'string' ? manifest.types : (entry.types ?? []);
    const prefixes = (typeof entry === 'string' ? manifest.idPrefixes : entry.idPrefixes) ?? [''];
    for (const type of types) for (const prefix of prefixes) out.push({ type, prefix });
  }
  return out.slice(0, 8);
}

/**
 * Items to ask a stream-only or meta-only add-on about, which has no catalog to sample from:
 * a well-known id of each prefix it routes (`tt0111161` for `tt`).
 */
export function prefixRefs(ctx: Context): Array<{ type: string; id: string; name: string }> {
  const refs: Array<{ type: string; id: string; name: string }> = [];
  for (const resource of ['stream', 'meta'] as const) {
    for (const { type, prefix } of routedPrefixes(ctx, resource)) {
      const id = WELL_KNOWN[prefix];
      if (id !== undefined && !refs.some((r) => r.type === type && r.id === id)) refs.push({ type, id, name: id });
    }
  }
  return refs;
}

/**
 * Meta and streams of an id the add-on cannot have, for each routed type: the spec's answer is
 * 404 (or an empty stream list); `{ "meta": null }` and 5xx are what add-ons get wrong.
 *
 * @example await checkUnknownIds(ctx);
 */
export async function checkUnknownIds(ctx: Context): Promise<void> {
  const asked = new Set<string>();
  for (const resource of ['meta', 'stream'] as const) {
    for (const { type, prefix } of routedPrefixes(ctx, resource)) {
      const path = formatAddonPath({ resource, type, id: `${prefix}${UNKNOWN_ID}`, extra: [] });
      if (asked.has(path)) continue;
      asked.add(path);
      const exchange = await ctx.requester.get(path);
      if (exchange.outcome === 'skipped') return;
      ctx.findings.ran(resource);
      const note = (severity: 'warning' | 'info', message: string, effect: string) =>
        ctx.findings.add({ check: resource, severity, path, message, effect });
      if (exchange.outcome !== 'response') {
        note(
          'warning',
          `an unknown id gets no answer: ${exchange.reason}`,
          `the client waits for this add-on's ${resource} until its timeout`,
        );
      } else if (exchange.status !== undefined && exchange.status >= 500) {
        note(
          'warning',
          `an unknown id answers HTTP ${exchange.status}: answer 404`,
          'spec: errors are for failures; monitors and caches read it as the add-on failing',
        );
      } else if (
        exchange.status === 200 &&
        resource === 'meta' &&
        /^\s*\{\s*"meta"\s*:\s*null\s*\}\s*$/.test(exchange.text ?? '')
      ) {
        note(
          'warning',
          'an unknown id answers 200 { "meta": null }: answer 404',
          'the client fails the details page with "invalid type: null" (client-behaviour.md), where a 404 says "not here"',
        );
      } else if (exchange.status === 200 && resource === 'stream') {
        // { streams: [] } is the right answer; validate it like any answer.
      } else if (exchange.status !== 404 && exchange.status !== 200) {
        note(
          'info',
          `an unknown id answers HTTP ${exchange.status}`,
          'the client shows nothing from this add-on for it',
        );
      }
    }
  }
}
