/**
 * A pass over many streams, as a good neighbour: at most `concurrency` checks at once, at most
 * `perHost` connections to one host at a time (every hop of a check waits for a slot of the host it
 * goes to, holding one slot at a time, so no two checks can wait on each other), a pause after
 * each request before its slot is used again, a budget of requests per pass (no check starts once
 * it is spent), and a host that answers 429 is left alone for the rest of the pass. Hosts take
 * turns, so one large provider does not hold up the rest. One memo of unreachable hosts serves
 * the pass: a name that does not resolve is not looked up again, a host that did not answer is
 * tried with a short connect timeout.
 */
import { createHostMemo } from '../input/index.js';
import { type ProbeOptions, type ProbeOutcome, probeStream, type StreamTarget } from './probe.js';
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
}

export interface StreamCheck<T extends StreamTarget = StreamTarget> {
  readonly target: T;
  readonly outcome: ProbeOutcome;
  /** When it was decided (epoch ms). */
  readonly at: number;
  readonly ms: number;
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
  const concurrency = Math.max(1, Math.trunc(options.concurrency));
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const hostsMemo = createHostMemo();
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

  const record = (target: T, outcome: ProbeOutcome, started: number) => {
    const check = { target, outcome, at: Date.now(), ms: Date.now() - started };
    checks.push(check);
    options.onChecked?.(check);
  };

  for (const target of targets) {
    const host = hostOf(target.url);
    if (host === undefined) {
      record(target, { skipped: 'unsupported', detail: 'not an http(s) URL that can be checked' }, Date.now());
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

  const stopped = () => options.signal?.aborted === true || requests >= maxRequests;

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
    let outcome: ProbeOutcome;
    try {
      outcome = await probe(target, {
        ...options,
        hosts: hostsMemo,
        // The first request uses the slot the check was started with. Each later one (a redirect,
        // a variant) gives it back and waits for a slot of the host it goes to, after the pause,
        // as any other request would: a check never holds two slots, and the host has closed the
        // connection before it is counted as free again.
        beforeRequest: async (url, signal) => {
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
    record(target, outcome, started);
    inFlight--;
    pump();
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
    options.signal?.removeEventListener('abort', onAbort);
    finish({
      checks,
      notStarted: queued,
      requests,
      budgetSpent: requests >= maxRequests && queued > 0,
      rateLimitedHosts: limited.size,
    });
  }
  const onAbort = () => end();
  options.signal?.addEventListener('abort', onAbort, { once: true });

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
