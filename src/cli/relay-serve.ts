/**
 * The relay as `marquee serve` runs it (docs/relay.md): its settings, the connection limit of each
 * source (relay-connections.ts), failures recorded in stream health, its sessions published for
 * `marquee status`, and the links the live-TV part lists.
 */
import type { StreamRelay } from '../livetv/index.js';
import {
  createRelay,
  DEFAULT_RELAY_LIMITS,
  lookUp,
  type Relay,
  type RelayLimits,
  type RelayMode,
  type RelayOptions,
  relayLinks,
  relayStatusFile,
  relayTokens,
  type StatusWriter,
  writeRelayStatus,
} from '../relay/index.js';
import type { KeyRing } from '../server/index.js';
import { type Store, sourceKey } from '../store/index.js';
import { xtreamSources } from './app.js';
import { healthServing } from './health.js';
import { count } from './plural.js';
import { sourceLimits } from './relay-connections.js';
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

/** What the relay of `serve` and of `serve --hosted` have in common, made from the settings. */
interface RunningRelay {
  readonly relay: Relay;
  /** The links of stream answers; in hosted mode, those of the source set `set`. */
  links(set?: string): StreamRelay;
  /** Stops publishing the status file and closes every session. */
  stop(): void;
}

/**
 * The relay with what both modes give it alike (its limits, tokens on the key ring, the sources'
 * address rules, the log) and `own`, what each looks up and records its own way; its sessions
 * published for `marquee status`.
 */
function runRelay(
  settings: Settings,
  mode: RelayMode,
  context: { db: string; ring: () => KeyRing; log: RelayLog },
  own: Pick<RelayOptions, 'resolve' | 'onFailure' | 'sourceLimit' | 'setLimits'>,
): RunningRelay {
  const limits = relayLimits(settings);
  const tokens = relayTokens(context.ring);
  const log = context.log;
  const relay = createRelay({
    tokens,
    limits,
    // Streams are held to the address rules of sources (users' sources, in hosted mode).
    policy: {
      ...(settings.sources?.allowPrivate !== undefined ? { allowPrivate: settings.sources.allowPrivate } : {}),
    },
    ...own,
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
    links: (set) =>
      relayLinks({
        mode,
        tokens,
        ...(set !== undefined ? { set } : {}),
        ...(settings.relay?.keepDirect ? { keepDirect: true } : {}),
        ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
      }),
    stop() {
      status?.stop();
      relay.close();
    },
  };
}

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
  const health = healthServing(settings);
  const accounts = xtreamSources(settings);
  const userAgents = new Map<string, string>();
  for (const [i, x] of (settings.xtream ?? []).entries()) {
    if (typeof x !== 'string' && x.userAgent)
      userAgents.set(sourceKey('playlist', accounts[i]!.account.location), x.userAgent);
  }
  const log = context.log;
  const running = runRelay(settings, mode, context, {
    resolve: (payload, digest) =>
      payload.set === undefined
        ? lookUp(context.store(), payload, digest, { health, userAgentOf: (origin) => userAgents.get(origin) })
        : undefined,
    sourceLimit: sourceLimits(settings, log),
    onFailure: (url, state, detail) => {
      context
        .store()
        .recordStreamVerdicts([{ url, state, detail, at: Date.now() }])
        .catch((error: Error) =>
          log.warn('relay: could not record a stream failure in stream health', { reason: error.message }),
        );
    },
  });
  const what =
    mode === 'always'
      ? 'every stream'
      : 'streams a browser cannot play as they are (http: over https, streams that need headers, MPEG-TS)';
  return {
    relay: running.relay,
    links: running.links(),
    banner: `  relay:     on: ${what} play through this server, one upstream per channel (docs/relay.md)`,
    note: `Channels play through this server's relay: ${what}.`,
    stop: running.stop,
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
  const log = context.log;
  const running = runRelay(settings, mode, context, {
    resolve: (payload, digest) => {
      if (payload.set === undefined) return undefined;
      const store = context.storeOf(payload.set);
      return store === undefined ? undefined : lookUp(store, payload, digest);
    },
    setLimits: caps,
    onFailure: (url, state, detail, target) => {
      const store = target.set === undefined ? undefined : context.storeOf(target.set);
      store
        ?.recordStreamVerdicts([{ url, state, detail, at: Date.now() }])
        .catch((error: Error) => log.warn('relay: could not record a stream failure', { reason: error.message }));
    },
  });
  return {
    relay: running.relay,
    linksFor: (key) => running.links(key),
    note: "Channels play through this server's relay: streams a browser cannot play as they are.",
    banner: `  relay:     on for users' streams (hosted.relay): ${count(caps.maxUpstreams, 'upstream')} and ${count(caps.maxViewers, 'viewer')} per source set (docs/relay.md)`,
    stop: running.stop,
  };
}
