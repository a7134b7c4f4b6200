/**
 * The addresses a TV or phone on this machine's network reaches it at, for `serve`'s banner when
 * it listens on every interface (`--host 0.0.0.0`): the banner's own address is 127.0.0.1, which
 * only this machine can use (issue 46).
 */
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

/**
 * Interfaces of containers and virtual machines on this host (Docker's bridge, libvirt, VMware,
 * VirtualBox, Kubernetes' overlays): their addresses are not on the network a TV is on.
 */
const VIRTUAL = /^(docker|br-|veth|virbr|vmnet|vboxnet|cni|flannel|kube|cali|lxcbr|lxdbr|podman)/i;

/**
 * This machine's addresses that `host` listens on and a device elsewhere can reach: not loopback,
 * not link-local IPv6 (it needs a zone a URL cannot carry), not a container's or a virtual
 * machine's bridge. IPv4 first (what a TV uses); IPv6 only when listening on `::`.
 * @example lanAddresses('0.0.0.0') // ['192.168.1.5']
 */
export function lanAddresses(
  host: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const everywhere = host === '0.0.0.0' || host === '::';
  if (!everywhere) return [];
  const v4: string[] = [];
  const v6: string[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    if (VIRTUAL.test(name)) continue;
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') v4.push(a.address);
      else if (host === '::' && !/^fe[89ab]/i.test(a.address)) v6.push(a.address);
    }
  }
  return [...new Set([...v4, ...v6])];
}

/**
 * `url` with its host replaced by `address` (an IPv6 address in brackets).
 * @example atAddress('http://127.0.0.1:7000/manifest.json', '192.168.1.5') // 'http://192.168.1.5:7000/manifest.json'
 */
export function atAddress(url: string, address: string): string {
  const u = new URL(url);
  u.hostname = address.includes(':') ? `[${address}]` : address;
  return u.href;
}
