/**
 * The relay as a whole: sessions keyed by stream (one upstream each, however many viewers), the
 * viewers, the global and per-source limits, and the sweep that closes idle sessions. The HTTP
 * side is route.ts; what a token names is looked up by the caller (`resolve`), so the relay holds
 * no store of its own.
 */
import { MarqueeError } from '../errors.js';
import type { CoreRequest, CoreResponse } from '../server/index.js';
import type { UpstreamPolicy } from './fetch.js';
import { routeRelay } from './route.js';
import { Session } from './session.js';
import { type Bucket, LimitRefusal, Slots } from './slots.js';
import type { RelayTokenPayload, RelayTokens } from './token.js';
import {
  DEFAULT_RELAY_LIMITS,
  type RelayLimits,
  type RelayLog,
  type RelaySessionInfo,
  type RelayStream,
  type RelayTarget,
} from './types.js';

/** A source's own connection limit. */
export interface SourceLimit {
  readonly max: number;
  /** The limit in words, naming its setting: `this playlist allows 1 connection at a time (livetv.playlists[].maxConnections)`. */
  readonly says: string;
}

export interface RelayOptions {
  readonly tokens: RelayTokens;
  /** The stored streams a token names, or undefined when the channel or stream is no longer stored. */
  readonly resolve: (payload: RelayTokenPayload, digest: (url: string) => string) => RelayTarget | undefined;
  readonly limits?: Partial<RelayLimits>;
  readonly policy?: UpstreamPolicy;
  /** The connection limit of a source (`streams.origin`), when it has one. */
  readonly sourceLimit?: (pool: string) => SourceLimit | undefined | Promise<SourceLimit | undefined>;
  /** Hosted mode: each source set's own caps. */
  readonly setLimits?: { readonly maxUpstreams: number; readonly maxViewers: number };
  /** An upstream failed (recorded in stream health by the caller, in the target's store). */
  readonly onFailure?: (url: string, state: 'dead' | 'timeout', detail: string, target: RelayTarget) => void;
  readonly log?: RelayLog;
  readonly now?: () => number;
  /** How often viewers and idle sessions are checked. Default 1 s. */
  readonly sweepMs?: number;
}

export interface Relay {
  /** Answers a request under the relay's mount: `path` is what follows `/relay` (`/{token}/index.m3u8`). */
  handle(request: CoreRequest, path: string): Promise<CoreResponse>;
  readonly tokens: RelayTokens;
  /** The sessions now, for `marquee status`. */
  sessions(): RelaySessionInfo[];
  /** Closes every session (serve is stopping). */
  close(): void;
}

/** What the route needs of the relay (relay.ts's internals, for route.ts). */
export interface RelayCore {
  readonly options: RelayOptions;
  readonly limits: RelayLimits;
  /** The running session of a target, started (and its upstream opened) when there is none. */
  session(target: RelayTarget): Promise<Session>;
  /** A new viewer may join `session` (throws LimitRefusal naming the limit when not). */
  admit(session: Session): void;
  /** Holds a connection slot of the target's first stream (a pass-through request); resolves to its release. */
  hold(target: RelayTarget): Promise<() => void>;
}

const SILENT: RelayLog = { info() {}, warn() {} };

/**
 * @example const relay = createRelay({ tokens, resolve: (p, digest) => lookUp(store, p, digest) });
 */
export function createRelay(options: RelayOptions): Relay {
  const limits: RelayLimits = { ...DEFAULT_RELAY_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const log = options.log ?? SILENT;
  const slots = new Slots();
  const sessions = new Map<string, Session>();
  const starting = new Map<string, Promise<Session>>();
  /** Sessions whose first stream is being opened: a close stops them too, not only the running ones. */
  const opening = new Set<Session>();
  let stopped = false;

  const all: Bucket = {
    key: 'all',
    max: limits.maxUpstreams,
    says: `the relay's limit of ${limits.maxUpstreams} upstream connection${limits.maxUpstreams === 1 ? '' : 's'} (relay.maxUpstreams) is reached`,
  };

  async function buckets(stream: RelayStream, target: RelayTarget): Promise<Bucket[]> {
    const list: Bucket[] = [all];
    if (target.set !== undefined && options.setLimits) {
      const max = options.setLimits.maxUpstreams;
      list.push({
        key: `set:${target.set}`,
        max,
        says: `this add-on's limit of ${max} relayed channel${max === 1 ? '' : 's'} at once (hosted.relay) is reached`,
      });
    }
    if (stream.pool !== undefined && options.sourceLimit) {
      const limit = await options.sourceLimit(stream.pool);
      if (limit !== undefined && limit.max > 0)
        list.push({ key: `source:${stream.pool}`, max: limit.max, says: limit.says });
    }
    return list;
  }

  const deps = {
    policy: options.policy ?? {},
    limits,
    slots,
    buckets,
    onFailure: (stream: RelayStream, state: 'dead' | 'timeout', detail: string, target: RelayTarget) =>
      options.onFailure?.(stream.url, state, detail, target),
    onClose: (session: Session) => {
      if (sessions.get(session.key) === session) sessions.delete(session.key);
      log.info('relay: upstream closed', { channel: session.channel, bytes: session.bytesIn });
    },
    log,
    now,
  };

  const core: RelayCore = {
    options,
    limits,
    async session(target) {
      const running = sessions.get(target.key);
      if (running !== undefined && !(running.ended && running.viewers.count === 0)) return running;
      running?.close();
      const pending = starting.get(target.key);
      if (pending) return pending;
      if (stopped) throw new MarqueeError('SOURCE_UNREADABLE', 'the relay is stopping');
      const session = new Session(target, deps);
      opening.add(session);
      const start = session.start().then(
        () => {
          opening.delete(session);
          // Stopped while it opened: the connection it just got goes back at once.
          if (stopped) {
            session.close();
            throw new MarqueeError('SOURCE_UNREADABLE', 'the relay is stopping');
          }
          sessions.set(target.key, session);
          log.info('relay: upstream opened', { channel: session.channel, upstream: session.info().upstream });
          return session;
        },
        (error: unknown) => {
          opening.delete(session);
          session.close();
          throw error;
        },
      );
      starting.set(target.key, start);
      try {
        return await start;
      } finally {
        starting.delete(target.key);
      }
    },
    async hold(target) {
      const holder = { channel: target.channel.name, idle: () => false, release: async () => {} };
      await slots.take(await buckets(target.streams[0]!, target), holder);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        slots.give(holder);
      };
    },
    admit(session) {
      const viewers = (filter: (s: Session) => boolean) =>
        [...sessions.values()].filter(filter).reduce((n, s) => n + s.viewers.count, 0);
      if (viewers(() => true) >= limits.maxViewers) {
        throw new LimitRefusal(
          {
            key: 'viewers',
            max: limits.maxViewers,
            says: `the relay's limit of ${limits.maxViewers} viewer${limits.maxViewers === 1 ? '' : 's'} (relay.maxViewers) is reached`,
          },
          [],
        );
      }
      const set = session.target.set;
      if (set !== undefined && options.setLimits) {
        const max = options.setLimits.maxViewers;
        if (viewers((s) => s.target.set === set) >= max) {
          throw new LimitRefusal(
            { key: `viewers:${set}`, max, says: `this add-on's limit of ${max} viewers (hosted.relay) is reached` },
            [],
          );
        }
      }
    },
  };

  const sweep = setInterval(() => {
    const t = now();
    for (const session of [...sessions.values()]) session.sweep(t);
  }, options.sweepMs ?? 1_000);
  sweep.unref();

  return {
    tokens: options.tokens,
    handle: (request, path) => routeRelay(core, request, path),
    sessions: () => [...sessions.values()].map((s) => s.info()),
    close() {
      stopped = true;
      clearInterval(sweep);
      for (const session of [...sessions.values(), ...opening]) session.close();
    },
  };
}
