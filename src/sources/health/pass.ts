/**
 * A pass over many streams, as a good neighbour: at most `concurrency` checks at once, at most
 * `perHost` connections to one host at a time (every hop of a check waits for a slot of the host it
 * goes to, holding one slot at a time, so no two checks can wait on each other), a pause after
 * each request before its slot is used again, a budget of requests per pass (no check starts once
 * it is spent), and a host that answers 429 is left alone for the rest of the pass. Hosts take
 * turns, so one large provider does not hold up the rest. One memo of unreachable hosts serves
 * the pass: a name that does not resolve is not looked up again, a host that did not answer is
 * tried with a short connect timeout.
 *
 * Only the checks a pass makes cost time (issue 48, issue 46). A stream it may not check is
 * skipped at once, with no request and no wait for a slot: an address literal the private-address
 * rule refuses when it is queued, and the rest of a host whose name turned out to be private
 * after its first check. A host that cannot be reached decides the rest of its streams at once,
 * with its own verdict: at the first "no such host" (the resolver said so, and would say it
 * again), at the second failure in a row for the other ways of not getting an answer (refused,
 * unreachable, no connection, the lookup failing) when no check of it got one. Before, 1,500
 * streams on a host that did not resolve took 190 s of slots and pauses (issue 46: "each pass
 * took over 3 minutes"), and 200 on private addresses 25 s.
 */
import { setMaxListeners } from 'node:events';
import { createHostMemo, isForbiddenAddress } from '../input/index.js';
import { addressLiteral, createHostVerdicts, PRIVATE } from './hosts.js';
import {
  type NetworkFailure,
  type ProbeOptions,
  type ProbeOutcome,
  type ProbeVerdict,
  probeStream,
  type StreamTarget,
} from './probe.js';
import { createHostSlots, type Lease } from './slots.js';

/** Default pause after a request before its host's slot is used again. */
export const DEFAULT_PAUSE_MS = 250;

export interface CheckOptions extends Omit<ProbeOptions, 'beforeRequest' | 'hosts'> {
  /** Checks at once. */
  readonly concurrency: number;
  /** Connections to one host (name and port) at once. */
  readonly perHost: number;
  /** Pause after each request before its slot is used again. Default DEFAULT_PAUSE_MS. */
  readonly pauseMs?: number;
  /** Requests of the pass at most (every hop and variant counts); no check starts past it. */
  readonly maxRequests?: number;
  /** Each stream's outcome as soon as it is known. */
  readonly onChecked?: (check: StreamCheck) => void;
  /** Checks one stream; default probeStream (tests and benchmarks may wrap it). */
  readonly probe?: (target: StreamTarget, options: ProbeOptions) => Promise<ProbeOutcome>;
  /**
   * May the check of the stream at `url` reach loopback and private addresses (its
   * `allowPrivateAddresses`)? Default: `allowPrivateAddresses` for every stream.
   */
  readonly allowPrivateUrl?: (url: string) => boolean;
}

export interface StreamCheck<T extends StreamTarget = StreamTarget> {
  readonly target: T;
  readonly outcome: ProbeOutcome;
  /** When it was decided (epoch ms). */
  readonly at: number;
  readonly ms: number;
  /**
   * Set when no server answered this check at all: its first request reached no server (how,
   * NetworkFailure), or its host had failed so before and decided it without a request.
   */
  readonly unreachable?: NetworkFailure;
  /** True when it was decided from its host's earlier checks, without a request of its own. */
  readonly byHost?: boolean;
}

export interface CheckReport<T extends StreamTarget = StreamTarget> {
  /** One per stream that was checked, or skipped for a reason of its own (its scheme, its address, a 429). */
  readonly checks: StreamCheck<T>[];
  /** Streams never started: the budget was spent, or the pass was stopped. */
  readonly notStarted: number;
  /** Requests sent. */
  readonly requests: number;
  /** True when the budget ran out before every stream was checked. */
  readonly budgetSpent: boolean;
  /** Hosts that answered 429 and were left alone afterwards. */
  readonly rateLimitedHosts: number;
}

/**
 * Check `targets` (each URL once), as the options allow.
 * @example const report = await checkStreams(targets, { concurrency: 16, perHost: 2, timeoutMs: 8000 })
 */
export function checkStreams<T extends StreamTarget>(
  targets: readonly T[],
  options: CheckOptions,
): Promise<CheckReport<T>> {
  const probe = options.probe ?? probeStream;
  // The pass's own signal, followed by the caller's: every check in flight listens to it (16 at
  // once by default, past the 10 listeners after which Node warns of a leak).
  const passStop = new AbortController();
  setMaxListeners(0, passStop.signal);
  const signal = passStop.signal;
  const follow = () => passStop.abort();
  if (options.signal?.aborted) passStop.abort();
  else options.signal?.addEventListener('abort', follow, { once: true });
  const concurrency = Math.max(1, Math.trunc(options.concurrency));
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const hostsMemo = createHostMemo();
  const hostVerdicts = createHostVerdicts();
  const checks: StreamCheck<T>[] = [];
  const queues = new Map<string, T[]>();
  const ready: string[] = [];
  const inReady = new Set<string>();
  const limited = new Set<string>();
  let requests = 0;
  let inFlight = 0;
  let queued = 0;
  let finish: (report: CheckReport<T>) => void = () => {};
  const done = new Promise<CheckReport<T>>((resolve) => {
    finish = resolve;
  });

  const record = (target: T, outcome: ProbeOutcome, started: number, extra: Partial<StreamCheck<T>> = {}) => {
    const check: StreamCheck<T> = { target, outcome, at: Date.now(), ms: Date.now() - started, ...extra };
    checks.push(check);
    options.onChecked?.(check);
  };
  const mayReachPrivate = (url: string) => options.allowPrivateUrl?.(url) ?? options.allowPrivateAddresses === true;
  const allowed = (url: string) => {
    if (options.allowAddress) return options.allowAddress;
    return mayReachPrivate(url) ? () => true : (address: string) => !isForbiddenAddress(address);
  };

  for (const target of targets) {
    const host = hostOf(target.url);
    if (host === undefined) {
      record(target, { skipped: 'unsupported', detail: 'not an http(s) URL that can be checked' }, Date.now());
      continue;
    }
    // An address the rule refuses is known without a lookup: skipped now, with no slot nor pause.
    const literal = addressLiteral(host);
    if (literal !== undefined && !allowed(target.url)(literal)) {
      record(target, PRIVATE, Date.now());
      continue;
    }
    let queue = queues.get(host);
    if (queue === undefined) {
      queue = [];
      queues.set(host, queue);
      ready.push(host);
      inReady.add(host);
    }
    queue.push(target);
    queued++;
  }

  const slots = createHostSlots(
    Math.max(1, Math.trunc(options.perHost)),
    options.pauseMs ?? DEFAULT_PAUSE_MS,
    (host) => {
      if ((queues.get(host)?.length ?? 0) > 0 && !inReady.has(host)) {
        ready.push(host);
        inReady.add(host);
      }
      pump();
    },
  );

  const stopped = () => signal.aborted || requests >= maxRequests;

  function pump(): void {
    while (inFlight < concurrency && !stopped() && ready.length > 0) {
      const host = ready.shift()!;
      inReady.delete(host);
      const queue = queues.get(host);
      if (queue === undefined || queue.length === 0) continue;
      const lease = slots.tryTake(host);
      // No free slot: the host is asked again when one is (onFree).
      if (lease === undefined) continue;
      const target = queue.shift()!;
      queued--;
      if (queue.length > 0) {
        ready.push(host);
        inReady.add(host);
      }
      inFlight++;
      // Its first request is counted now, so the budget holds however many start at once.
      requests++;
      void run(target, lease);
    }
    if (inFlight === 0 && (queued === 0 || stopped() || ready.length === 0)) end();
  }

  async function run(target: T, first: Lease): Promise<void> {
    const started = Date.now();
    let lease = first;
    let sent = false;
    let hops = 0;
    let outcome: ProbeOutcome;
    try {
      outcome = await probe(target, {
        ...options,
        signal,
        allowPrivateAddresses: mayReachPrivate(target.url),
        hosts: hostsMemo,
        // The first request uses the slot the check was started with. Each later one (a redirect,
        // a variant) gives it back and waits for a slot of the host it goes to, after the pause,
        // as any other request would: a check never holds two slots, and the host has closed the
        // connection before it is counted as free again.
        beforeRequest: async (url, signal) => {
          hops++;
          if (sent) {
            requests++;
            lease.release();
            lease = await slots.take(url.host.toLowerCase(), signal);
          }
          sent = true;
        },
      });
    } catch (error) {
      // probeStream does not throw; a probe of the caller's might.
      outcome = { state: 'dead', detail: error instanceof Error ? error.message : String(error) };
    } finally {
      lease.release();
    }
    if ('skipped' in outcome && outcome.skipped === 'rate-limited') leaveAlone(lease.host);
    const host = first.host;
    // What its first request met says something of the host (a later hop, of wherever it led).
    const unreachable = hops <= 1 && 'state' in outcome ? outcome.network : undefined;
    record(target, outcome, started, unreachable ? { unreachable } : {});
    if (unreachable) hostFailed(host, outcome as ProbeVerdict, unreachable);
    else if ('state' in outcome || hops > 1) hostVerdicts.answered(host);
    else if (outcome.skipped === 'private' && hops <= 1) privateHost(host);
    inFlight--;
    pump();
  }

  /** A host whose first request failed to reach it: its rest decided at once past the rule. */
  function hostFailed(host: string, verdict: ProbeVerdict, how: NetworkFailure): void {
    if (!hostVerdicts.failed(host, how)) return;
    const { state, detail } = verdict;
    for (const target of take(host, () => true)) {
      record(target, { state, detail, network: how }, Date.now(), { unreachable: how, byHost: true });
    }
  }

  /** A host name that resolved to a private address: its other streams the rule refuses go too. */
  function privateHost(host: string): void {
    for (const target of take(host, (t) => !mayReachPrivate(t.url))) record(target, PRIVATE, Date.now());
  }

  /** Takes the queued streams of `host` that `which` picks out of the queue. */
  function take(host: string, which: (target: T) => boolean): T[] {
    const queue = queues.get(host);
    if (queue === undefined) return [];
    const taken = queue.filter(which);
    if (taken.length === 0) return [];
    const left = queue.filter((t) => !which(t));
    if (left.length === 0) queues.delete(host);
    else queues.set(host, left);
    queued -= taken.length;
    return taken;
  }

  /** A host that asked us to slow down (429): its other streams keep what they had. */
  function leaveAlone(host: string): void {
    if (limited.has(host)) return;
    limited.add(host);
    const rest = queues.get(host) ?? [];
    queues.delete(host);
    queued -= rest.length;
    for (const target of rest) {
      record(target, { skipped: 'rate-limited', detail: 'HTTP 429 from its host earlier in this pass' }, Date.now());
    }
  }

  let ended = false;
  function end(): void {
    if (ended || inFlight > 0) return;
    // Hosts whose slots are pausing still have streams: they come back through onFree.
    if (!stopped() && queued > 0) return;
    ended = true;
    signal.removeEventListener('abort', onAbort);
    options.signal?.removeEventListener('abort', follow);
    finish({
      checks,
      notStarted: queued,
      requests,
      budgetSpent: requests >= maxRequests && queued > 0,
      rateLimitedHosts: limited.size,
    });
  }
  const onAbort = () => end();
  signal.addEventListener('abort', onAbort, { once: true });

  pump();
  return done;
}

/** The host a stream's slots are counted by: its name and port. */
function hostOf(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}
