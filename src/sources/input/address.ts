/**
 * Which IP addresses a user-supplied URL may reach. Anything that is not plainly public
 * (loopback, private, link-local, unique-local, CGNAT, unspecified, multicast, reserved, and
 * IPv6 forms that embed such an IPv4 address) is refused, so a config URL cannot probe the
 * operator's network or a cloud metadata service.
 */
import { isIP } from 'node:net';

/** IPv4 ranges as [first octets as a 32-bit number, prefix length]. */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", includes the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** IPv6 ranges as [first 16-bit groups, prefix length]; embedded IPv4 is checked separately. */
const BLOCKED_V6: ReadonlyArray<readonly [readonly number[], number]> = [
  [[0xfc00], 7], // unique-local
  [[0xfe80], 10], // link-local
  [[0xfec0], 10], // site-local (deprecated, still routable inside some networks)
  [[0xff00], 8], // multicast
  [[0x2001, 0x0db8], 32], // documentation
];

/**
 * True when `address` (an IP literal) is one a user-supplied URL must not reach.
 * @example isForbiddenAddress('169.254.169.254') // true; isForbiddenAddress('::ffff:10.0.0.1') // true
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return isForbiddenV4(ipv4ToNumber(bare));
  if (family === 6) return isForbiddenV6(parseIpv6(bare));
  return true; // not an IP literal: callers pass resolved addresses, so refuse what we cannot read
}

function isForbiddenV4(value: number): boolean {
  return BLOCKED_V4.some(([base, prefix]) => sameV4Prefix(value, ipv4ToNumber(base), prefix));
}

function sameV4Prefix(a: number, b: number, prefix: number): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function isForbiddenV6(groups: readonly number[]): boolean {
  const embedded = embeddedV4(groups);
  if (embedded !== undefined) return isForbiddenV4(embedded);
  // Loopback ::1 and unspecified :: fall under ::/96 (IPv4-compatible) above.
  return BLOCKED_V6.some(([base, prefix]) => sameV6Prefix(groups, base, prefix));
}

/**
 * The IPv4 address an IPv6 address carries when it is IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, including :: and ::1), NAT64 (64:ff9b::/96) or 6to4 (2002::/16).
 */
function embeddedV4(g: readonly number[]): number | undefined {
  const low = (((g[6] ?? 0) << 16) | (g[7] ?? 0)) >>> 0;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g[5] === 0xffff) return low;
  if (zeroTo(6)) return low;
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return low;
  if (g[0] === 0x2002) return (((g[1] ?? 0) << 16) | (g[2] ?? 0)) >>> 0;
  return undefined;
}

function sameV6Prefix(groups: readonly number[], base: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 16) {
    const width = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    const index = bit / 16;
    if (((groups[index] ?? 0) & mask) !== ((base[index] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4ToNumber(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Eight 16-bit groups of a valid IPv6 literal (node:net has validated it). */
function parseIpv6(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A trailing dotted quad (::ffff:10.0.0.1) is two groups written differently.
    const v4 = ipv4ToNumber(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const [head = '', rest] = text.split('::');
  const left = toGroups(head);
  if (rest === undefined) return left;
  const right = toGroups(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
