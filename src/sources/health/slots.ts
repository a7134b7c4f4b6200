/**
 * Connections per host, counted: at most `perHost` at once to one host (its name and port, as
 * browsers count them), and a pause after each before that slot is used again, so a provider sees
 * a few polite requests at a time whatever the size of a pass. A slot is held from before a
 * request is sent until its socket is closed, plus the pause.
 */

/** A held slot of one host; `release()` starts its pause, and may be called more than once. */
export interface Lease {
  readonly host: string;
  release(): void;
}

export interface HostSlots {
  /** A slot of `host` now, or undefined when none is free (or another request waits for one). */
  tryTake(host: string): Lease | undefined;
  /** A slot of `host` once one is free; waiters are served before `tryTake` callers, in order. */
  take(host: string, signal?: AbortSignal): Promise<Lease>;
  /** Slots of `host` held now (for tests and reports). */
  active(host: string): number;
}

interface HostState {
  active: number;
  readonly waiters: { grant: (lease: Lease) => void }[];
}

/**
 * Slots of `perHost` per host, each free again `pauseMs` after its release; `onFree(host)` is
 * called when a slot of a host nobody waits for becomes free.
 * @example const slots = createHostSlots(2, 250, (host) => pump()); const lease = slots.tryTake('tv.example:80')
 */
export function createHostSlots(
  perHost: number,
  pauseMs: number,
  onFree: (host: string) => void = () => {},
): HostSlots {
  const hosts = new Map<string, HostState>();
  const state = (host: string) => {
    let s = hosts.get(host);
    if (s === undefined) {
      s = { active: 0, waiters: [] };
      hosts.set(host, s);
    }
    return s;
  };

  function lease(host: string): Lease {
    let released = false;
    return {
      host,
      release() {
        if (released) return;
        released = true;
        const free = () => {
          const s = state(host);
          const next = s.waiters.shift();
          // The slot passes to the next waiter without ever being free in between.
          if (next) return next.grant(lease(host));
          s.active--;
          if (s.active === 0) hosts.delete(host);
          onFree(host);
        };
        if (pauseMs > 0) setTimeout(free, pauseMs);
        else queueMicrotask(free);
      },
    };
  }

  return {
    tryTake(host) {
      const s = state(host);
      if (s.active >= perHost || s.waiters.length > 0) return undefined;
      s.active++;
      return lease(host);
    },
    take(host, signal) {
      const s = state(host);
      if (s.active < perHost && s.waiters.length === 0) {
        s.active++;
        return Promise.resolve(lease(host));
      }
      return new Promise<Lease>((resolve, reject) => {
        const waiter = {
          grant: (granted: Lease) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(granted);
          },
        };
        const onAbort = () => {
          const at = s.waiters.indexOf(waiter);
          if (at !== -1) s.waiters.splice(at, 1);
          reject(signal?.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        s.waiters.push(waiter);
      });
    },
    active: (host) => hosts.get(host)?.active ?? 0,
  };
}
