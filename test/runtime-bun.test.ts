/**
 * examples/worker/ bundled for the browser platform and served by Bun (the `bun` npm package's
 * binary), its default export given to `Bun.serve` as Bun does with a module's `{ fetch }`. The
 * real client, `marquee check` and the rest of the contract (helpers/runtime-contract.ts), one
 * Bun for the file. Bun sends answers as they are given: the add-on gzips them itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeExampleOn } from './helpers/runtime-contract.js';
import { runtimeBinary, startRuntime } from './helpers/runtime-process.js';
import { EXAMPLE_KEYS, writeWorkerBundle } from './helpers/worker-example.js';

const dir = mkdtempSync(join(tmpdir(), 'marquee-bun-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `bun run worker.js` does with a default export holding `fetch`, on 127.0.0.1 and a free port. */
const SERVE = `import worker from './worker.js';
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, bun) => worker.fetch(request, bun) });
console.log(\`Bun \${Bun.version} serving \${server.url.origin}\`);
`;

describeExampleOn({
  runtime: 'Bun',
  compression: 'add-on',
  async start() {
    const bun = runtimeBinary('bun');
    await writeWorkerBundle(dir);
    writeFileSync(join(dir, 'serve.mjs'), SERVE);
    return startRuntime(bun.path, ['serve.mjs'], { cwd: dir, env: { MARQUEE_KEYS: EXAMPLE_KEYS } });
  },
});
