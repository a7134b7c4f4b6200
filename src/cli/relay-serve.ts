/**
 * The relay as `marquee serve` runs it (docs/relay.md): its settings, the connection limit of each
 * source (a playlist's `maxConnections`; an Xtream account's own setting, else what its panel says
 * in `user_info.max_connections`), failures recorded in stream health, its sessions published for
 * `marquee status`, and the links the live-TV part lists.
 */
import type { StreamRelay } from '../livetv/index.js';
import {
  createRelay,
  DEFAULT_RELAY_LIMITS,
  lookUp,
  type Relay,
  type RelayLimits,
  relayLinks,
  relayStatusFile,
  relayTokens,
  type SourceLimit,
  type StatusWriter,
  writeRelayStatus,
} from '../relay/index.js';
import type { KeyRing } from '../server/index.js';
import { createXtreamClient } from '../sources/xtream/index.js';
import { type Store, sourceKey } from '../store/index.js';
import { xtreamSources } from './app.js';
import { healthServing } from './health.js';
import { count } from './plural.js';
import type { Settings } from './settings.js';

export interface RelayLog {
  event(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** `relay.enabled` as serve reads it: `auto`, `always`, or off. */
export function relayMode(settings: Settings): 'auto' | 'always' | 'off' {
  const enabled = settings.relay?.enabled ?? 'auto';
  return enabled === 'auto' ? 'auto' : enabled ? 'always' : 'off';
}

/** The relay's limits from `relay.*`. */
export function relayLimits(settings: Settings): RelayLimits {
  const r = settings.relay ?? {};
  return {
    ...DEFAULT_RELAY_LIMITS,
    ...(r.idleSeconds !== undefined ? { idleMs: r.idleSeconds * 1000 } : {}),
    ...(r.stallSeconds !== undefined ? { stallMs: r.stallSeconds * 1000 } : {}),
    ...(r.maxUpstreams !== undefined ? { maxUpstreams: r.maxUpstreams } : {}),
    ...(r.maxViewers !== undefined ? { maxViewers: r.maxViewers } : {}),
    ...(r.bufferMegabytes !== undefined ? { bufferBytes: Math.round(r.bufferMegabytes * 1_048_576) } : {}),
  };
}

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

const connections = (n: number) => `${n} connection${n === 1 ? '' : 's'}`;

export interface ServeRelay {
  readonly relay: Relay;
  /** The links the live-TV part lists (StreamRelay). */
  readonly links: StreamRelay;
  /** The line serve's banner shows. */
  readonly banner: string;
  /** What the front page says. */
  readonly note: string;
  stop(): void;
}

/**
 * The relay of a plain `serve`, or undefined when `relay.enabled` is false.
 * @example const relay = startServeRelay(settings, { db, ring: () => ring, store: () => current, log })
 */
export function startServeRelay(
  settings: Settings,
  context: { db: string; ring: () => KeyRing; store: () => Store; log: RelayLog },
): ServeRelay | undefined {
  const mode = relayMode(settings);
  if (mode === 'off') return undefined;
  const limits = relayLimits(settings);
  const tokens = relayTokens(context.ring);
  const health = healthServing(settings);
  const accounts = xtreamSources(settings);
  const userAgents = new Map<string, string>();
  for (const [i, x] of (settings.xtream ?? []).entries()) {
    if (typeof x !== 'string' && x.userAgent)
      userAgents.set(sourceKey('playlist', accounts[i]!.account.location), x.userAgent);
  }
  const log = context.log;
  const relay = createRelay({
    tokens,
    resolve: (payload, digest) =>
      payload.set === undefined
        ? lookUp(context.store(), payload, digest, { health, userAgentOf: (origin) => userAgents.get(origin) })
        : undefined,
    limits,
    policy: {
      ...(settings.sources?.allowPrivate !== undefined ? { allowPrivate: settings.sources.allowPrivate } : {}),
    },
    sourceLimit: sourceLimits(settings, log),
    onFailure: (url, state, detail) => {
      context
        .store()
        .recordStreamVerdicts([{ url, state, detail, at: Date.now() }])
        .catch((error: Error) =>
          log.warn('relay: could not record a stream failure in stream health', { reason: error.message }),
        );
    },
    log: {
      info: (message, fields) => log.event(message, fields),
      warn: (message, fields) => log.warn(message, fields),
    },
  });
  let status: StatusWriter | undefined;
  try {
    status = writeRelayStatus(
      relayStatusFile(context.db),
      () => ({
        sessions: relay.sessions(),
        limits: { maxUpstreams: limits.maxUpstreams, maxViewers: limits.maxViewers },
      }),
      (error) => log.warn('relay: could not write its status file', { reason: error.message }),
    );
  } catch {}
  const links = relayLinks({
    mode: mode === 'always' ? 'always' : 'auto',
    tokens,
    ...(settings.relay?.keepDirect ? { keepDirect: true } : {}),
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
  });
  const what =
    mode === 'always'
      ? 'every stream'
      : 'streams a browser cannot play as they are (http: over https, streams that need headers, MPEG-TS)';
  return {
    relay,
    links,
    banner: `  relay:     on: ${what} play through this server, one upstream per channel (docs/relay.md)`,
    note: `Channels play through this server's relay: ${what}.`,
    stop() {
      status?.stop();
      relay.close();
    },
  };
}

/** Each source set's caps in hosted mode, when `hosted.relay` does not say. */
export const HOSTED_SET_LIMITS = { maxUpstreams: 2, maxViewers: 6 } as const;

export interface HostedRelay {
  readonly relay: Relay;
  /** The links of set `key`'s stream answers. */
  linksFor(key: string): StreamRelay;
  readonly banner: string;
  /** What the front page says. */
  readonly note: string;
  stop(): void;
}

/**
 * The relay of `serve --hosted`: off unless `hosted.relay` is set (and `relay.enabled` is not
 * false); then each source set has its own caps, on top of the relay's own.
 */
export function startHostedRelay(
  settings: Settings,
  context: { db: string; ring: () => KeyRing; storeOf: (set: string) => Store | undefined; log: RelayLog },
): HostedRelay | undefined {
  const hosted = settings.hosted?.relay;
  const mode = relayMode(settings);
  if (hosted === undefined || hosted === false || mode === 'off') return undefined;
  const caps = {
    maxUpstreams: (typeof hosted === 'object' ? hosted.maxUpstreams : undefined) ?? HOSTED_SET_LIMITS.maxUpstreams,
    maxViewers: (typeof hosted === 'object' ? hosted.maxViewers : undefined) ?? HOSTED_SET_LIMITS.maxViewers,
  };
  const limits = relayLimits(settings);
  const tokens = relayTokens(context.ring);
  const log = context.log;
  const relay = createRelay({
    tokens,
    resolve: (payload, digest) => {
      if (payload.set === undefined) return undefined;
      const store = context.storeOf(payload.set);
      return store === undefined ? undefined : lookUp(store, payload, digest);
    },
    limits,
    // Users' streams are held to the address rules of users' sources.
    policy: {
      ...(settings.sources?.allowPrivate !== undefined ? { allowPrivate: settings.sources.allowPrivate } : {}),
    },
    setLimits: caps,
    onFailure: (url, state, detail, target) => {
      const store = target.set === undefined ? undefined : context.storeOf(target.set);
      store
        ?.recordStreamVerdicts([{ url, state, detail, at: Date.now() }])
        .catch((error: Error) => log.warn('relay: could not record a stream failure', { reason: error.message }));
    },
    log: {
      info: (message, fields) => log.event(message, fields),
      warn: (message, fields) => log.warn(message, fields),
    },
  });
  let status: StatusWriter | undefined;
  try {
    status = writeRelayStatus(
      relayStatusFile(context.db),
      () => ({
        sessions: relay.sessions(),
        limits: { maxUpstreams: limits.maxUpstreams, maxViewers: limits.maxViewers },
      }),
      (error) => log.warn('relay: could not write its status file', { reason: error.message }),
    );
  } catch {}
  return {
    relay,
    linksFor: (key) =>
      relayLinks({
        mode: mode === 'always' ? 'always' : 'auto',
        tokens,
        set: key,
        ...(settings.relay?.keepDirect ? { keepDirect: true } : {}),
        ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
      }),
    note: "Channels play through this server's relay: streams a browser cannot play as they are.",
    banner: `  relay:     on for users' streams (hosted.relay): ${count(caps.maxUpstreams, 'upstream')} and ${count(caps.maxViewers, 'viewer')} per source set (docs/relay.md)`,
    stop() {
      status?.stop();
      relay.close();
    },
  };
}
