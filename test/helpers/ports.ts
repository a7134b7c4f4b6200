import { type AddressInfo, createServer } from 'node:net';

/**
 * A port on 127.0.0.1 free now: bound at port 0, read and released, for a server a test starts
 * (whose printed links must name its port before it runs) or as a port where a connection is refused.
 * @example const port = await freePort(); spawn('marquee', ['serve', '--port', String(port)])
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
