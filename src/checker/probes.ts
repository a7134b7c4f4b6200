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
      rule: 'not-found.no-answer',
      path,
      message: `an undeclared catalog gets no answer: ${exchange.reason}`,
      effect: 'spec: a catalog path the add-on does not serve answers 404 Not found',
    });
    return;
  }
  // A long-cached 404 outlives the day the catalog is added, so the error cache rule applies here too.
  if (exchange.status !== 200) for (const f of cacheFindings(exchange, 'data')) findings.add(f);
  if (exchange.status === 404) return;
  // The client never asks a catalog the manifest does not declare, so this is the spec's rule only.
  findings.add({
    check: 'not-found',
    severity: 'warning',
    rule: 'not-found.status',
    path,
    message: `a catalog the manifest does not declare answers HTTP ${exchange.status}: answer 404 for paths the add-on does not serve`,
    effect: 'spec: a catalog path the add-on does not serve answers 404 Not found (the client never asks it)',
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
