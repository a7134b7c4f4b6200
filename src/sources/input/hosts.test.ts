/**
 * The memo of unreachable hosts one import shares: each source is still read on its own, but a
 * host that refused a connection is asked once (no retries) and briefly, and a name that did not
 * resolve is not looked up again. Real sockets on 127.0.0.1; `.invalid` never resolves (RFC 6761).
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHostMemo, UNREACHABLE_CONNECT_TIMEOUT_MS } from './hosts.js';
import { openSource } from './open.js';

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failure = (location: string, options: Parameters<typeof openSource>[1]) =>
  openSource(location, options).then(
    () => {
      throw new Error(`${location} opened`);
    },
    (error: Error & { cause?: unknown }) => error,
  );

describe('createHostMemo', () => {
  it('asks a host that refused a connection once, without retries, for the next source', async () => {
    const port = await closedPort();
    const base = { allowPrivateAddresses: true, retries: 2, retryDelayMs: 5 };
    const hosts = createHostMemo();
    const first = await failure(`http://127.0.0.1:${port}/a.xml`, { ...base, hosts });
    expect(first.message).toMatch(/ECONNREFUSED .*\(after 3 attempts\)$/);
    const second = await failure(`http://127.0.0.1:${port}/b.xml`, { ...base, hosts });
    // Read on its own, with its own error: one attempt.
    expect(second.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/b\.xml: connect ECONNREFUSED [^(]*$/);
    // Without the memo every source retries.
    const alone = await failure(`http://127.0.0.1:${port}/c.xml`, base);
    expect(alone.message).toMatch(/\(after 3 attempts\)$/);
    expect(UNREACHABLE_CONNECT_TIMEOUT_MS).toBeLessThan(10_000);
  });

  it('does not look up a name that did not resolve again in the same import', async () => {
    const hosts = createHostMemo();
    const first = await failure('http://epg.marquee-test.invalid/a.xml', { hosts });
    const second = await failure('http://epg.marquee-test.invalid/b.xml', { hosts });
    expect(first.message).toBe('http://epg.marquee-test.invalid/a.xml: getaddrinfo ENOTFOUND epg.marquee-test.invalid');
    expect(second.message).toBe(
      'http://epg.marquee-test.invalid/b.xml: getaddrinfo ENOTFOUND epg.marquee-test.invalid',
    );
    // The same lookup failure, given again: no second lookup was made.
    expect(second.cause).toBe(first.cause);
    const fresh = await failure('http://epg.marquee-test.invalid/c.xml', { hosts: createHostMemo() });
    expect(fresh.cause).not.toBe(first.cause);
  });
});
