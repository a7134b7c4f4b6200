/**
 * The SSRF guard at connect time. Hostnames are checked inside the socket's own DNS lookup,
 * so the address that is checked is the address that is connected to (a second resolution
 * cannot rebind it); IP literals, which skip the lookup, are checked before connecting.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { MarqueeError } from '../../errors.js';
import { isForbiddenAddress } from './address.js';
import type { HostMemo } from './hosts.js';
import type { SourceOptions } from './types.js';

export type AddressPolicy = (address: string) => boolean;

/**
 * The policy the options ask for at `url` (one hop of a read): everything for a URL the options
 * list in `privateUrls`, else a custom one, everything, or public addresses only.
 * @example addressPolicy({}) ('10.0.0.1') // false
 */
export function addressPolicy(options: SourceOptions, url?: URL): AddressPolicy {
  if (url !== undefined && options.privateUrls?.some((listed) => sameUrl(listed, url))) return () => true;
  if (options.allowAddress) return options.allowAddress;
  if (options.allowPrivateAddresses) return () => true;
  return (address) => !isForbiddenAddress(address);
}

/**
 * Refuse a URL whose host is an IP literal the policy does not allow (literals skip DNS).
 * @example checkLiteralHost(new URL('http://169.254.169.254/'), policy, label) // throws SOURCE_FORBIDDEN
 */
export function checkLiteralHost(url: URL, allow: AddressPolicy, label: string): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !allow(host)) throw forbidden(label, host);
}

/**
 * A `lookup` for http.request that resolves every address and refuses the host when any of
 * them is not allowed (a name with one private address is not trusted for its public ones).
 */
export function guardedLookup(allow: AddressPolicy, label: string, hosts?: HostMemo): LookupFunction {
  return (hostname, options, callback) => {
    // "No such host" a moment ago in this import: said again at once (hosts.ts).
    const known = hosts?.lookupFailure(hostname);
    if (known) {
      process.nextTick(() => callback(known as NodeJS.ErrnoException, '', 0));
      return;
    }
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        hosts?.lookupFailed(hostname, error);
        return callback(error, '', 0);
      }
      const refused = addresses.find((entry) => !allow(entry.address));
      if (refused) return callback(forbidden(label, `${hostname} (${refused.address})`), '', 0);
      if ((options as LookupOptions).all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** `listed` (as the operator wrote it) names exactly `url`. */
function sameUrl(listed: string, url: URL): boolean {
  try {
    return new URL(listed).href === url.href;
  } catch {
    return false;
  }
}

function forbidden(label: string, host: string): MarqueeError {
  return new MarqueeError(
    'SOURCE_FORBIDDEN',
    `${label}: ${host} is a private or local address, which this source may not reach`,
  );
}
