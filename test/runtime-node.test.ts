/**
 * examples/worker/ bundled for the browser platform and served by Node (node:http handing each
 * request to the bundle's `fetch`, as Node hosts of Fetch handlers do): the same bundle as on
 * workerd, Bun and Deno, with Node's Web APIs (CompressionStream, Web Crypto). The real client,
 * `marquee check` and the rest of the contract (helpers/runtime-contract.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import { serveFetch } from './helpers/fetch-bridge.js';
import { describeExampleOn } from './helpers/runtime-contract.js';
import { EXAMPLE_KEYS, writeWorkerBundle } from './helpers/worker-example.js';

const dir = mkdtempSync(join(tmpdir(), 'marquee-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeExampleOn({
  runtime: 'Node',
  compression: 'add-on',
  async start() {
    const file = await writeWorkerBundle(dir);
    const worker = (await import(pathToFileURL(file).href)) as {
      default: { fetch(request: Request, env: unknown): Promise<Response> };
    };
    const env = { MARQUEE_KEYS: EXAMPLE_KEYS };
    const server = await serveFetch((request) => worker.default.fetch(request, env));
    return { url: server.url, stop: () => server.close() };
  },
});
