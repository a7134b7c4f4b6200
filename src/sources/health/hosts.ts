/**
 * What a pass learns of each host (name and port) from its checks, so that only the checks it
 * makes cost time: a host that cannot be reached gives the rest of its streams its verdict at once
 * (at its first "no such host", which the resolver would say again; at its second failure in a row
 * of the other ways of reaching no server), unless a check of it got an answer in this pass.
 */
import { isIP } from 'node:net';
import type { NetworkFailure, ProbeOutcome } from './probe.js';

/** The outcome of a stream the private-address rule refuses: skipped, keeping what it had. */
export const PRIVATE: ProbeOutcome = {
  skipped: 'private',
  detail: 'a private or local address (sources.allowPrivate allows it)',
};

/** The IP address a host (`name:port`, `[v6]:port`) is written as, or undefined for a name. */
export function addressLiteral(host: string): string | undefined {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return isIP(name) !== 0 ? name : undefined;
}

export interface HostVerdicts {
  /** A check of `host` got an answer (of any kind): the host never decides for its streams. */
  answered(host: string): void;
  /** A check of `host` reached no server; true when the host's other streams are decided now. */
  failed(host: string, how: NetworkFailure): boolean;
}

/** @example const hosts = createHostVerdicts(); if (hosts.failed('tv.example:80', 'refused')) … */
export function createHostVerdicts(): HostVerdicts {
  const reached = new Set<string>();
  /** Failures in a row of hosts that answered nothing yet. */
  const failing = new Map<string, number>();
  return {
    answered(host) {
      reached.add(host);
      failing.delete(host);
    },
    failed(host, how) {
      if (reached.has(host)) return false;
      const n = (failing.get(host) ?? 0) + 1;
      failing.set(host, n);
      return n >= (how === 'no-such-host' ? 1 : 2);
    },
  };
}
