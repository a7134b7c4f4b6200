/**
 * The connection limit of each source the relay reads (docs/relay.md): a playlist's
 * `maxConnections`; an Xtream account's own setting, else what its panel says in
 * `user_info.max_connections`. The relay never opens more connections to a source than it allows.
 */
import type { SourceLimit } from '../relay/index.js';
import { createXtreamClient } from '../sources/xtream/index.js';
import { sourceKey } from '../store/index.js';
import { xtreamSources } from './app.js';
import { count } from './plural.js';
import type { RelayLog } from './relay-serve.js';
import type { Settings } from './settings.js';

/** How long what a panel says of its connection limit is kept. */
const PANEL_LIMIT_MS = 10 * 60_000;

/**
 * Each source's connection limit, by its key (`streams.origin`): playlists with `maxConnections`,
 * Xtream accounts with theirs, or their panel's `user_info.max_connections` (asked when first
 * needed, kept ten minutes).
 */
export function sourceLimits(settings: Settings, log?: RelayLog): (pool: string) => Promise<SourceLimit | undefined> {
  const fixed = new Map<string, SourceLimit>();
  for (const [i, p] of (settings.livetv?.playlists ?? []).entries()) {
    if (typeof p === 'string' || p.maxConnections === undefined) continue;
    fixed.set(sourceKey('playlist', p.url), {
      max: p.maxConnections,
      says: `this playlist allows ${connections(p.maxConnections)} at a time (livetv.playlists[${i}].maxConnections)`,
    });
  }
  const panels = new Map<string, () => Promise<SourceLimit | undefined>>();
  const accounts = xtreamSources(settings);
  for (const [i, x] of (settings.xtream ?? []).entries()) {
    const account = accounts[i]!.account;
    const key = sourceKey('playlist', account.location);
    const own = typeof x === 'string' ? undefined : x.maxConnections;
    if (own !== undefined) {
      fixed.set(key, {
        max: own,
        says: `the Xtream account ${account.label} allows ${connections(own)} at a time (xtream[${i}].maxConnections)`,
      });
      continue;
    }
    let known: { at: number; limit: SourceLimit | undefined } | undefined;
    let asking: Promise<SourceLimit | undefined> | undefined;
    const userAgent = typeof x === 'string' ? undefined : x.userAgent;
    panels.set(key, async () => {
      if (known && Date.now() - known.at < PANEL_LIMIT_MS) return known.limit;
      asking ??= panelLimit(account, userAgent, i)
        .catch((error: Error) => {
          log?.warn("relay: could not read the Xtream account's connection limit; counting none", {
            account: account.label,
            reason: error.message,
          });
          return undefined;
        })
        .then((limit) => {
          known = { at: Date.now(), limit };
          asking = undefined;
          return limit;
        });
      return asking;
    });
  }
  return async (pool) => fixed.get(pool) ?? (await panels.get(pool)?.());
}

async function panelLimit(
  account: ReturnType<typeof xtreamSources>[number]['account'],
  userAgent: string | undefined,
  index: number,
): Promise<SourceLimit | undefined> {
  const client = createXtreamClient(account, {
    allowPrivateAddresses: true,
    timeoutMs: 10_000,
    ...(userAgent ? { userAgent } : {}),
  });
  const answer = (await client.call(undefined)) as { user_info?: { max_connections?: unknown } } | undefined;
  const max = Number(answer?.user_info?.max_connections);
  if (!Number.isInteger(max) || max <= 0) return undefined;
  return {
    max,
    says: `the Xtream account ${account.label} allows ${connections(max)} at a time (its panel's max_connections; xtream[${index}].maxConnections sets another)`,
  };
}

const connections = (n: number) => count(n, 'connection');
