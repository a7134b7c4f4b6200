/**
 * examples/worker/ bundled for the browser platform and served by `deno serve` (the `deno` npm
 * package's binary), with no permission but reading MARQUEE_KEYS. The real client, `marquee
 * check` and the rest of the contract (helpers/runtime-contract.ts), one Deno for the file. Deno
 * 2.9 sends answers as they are given: the add-on gzips them itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeExampleOn } from './helpers/runtime-contract.js';
import { runtimeBinary, startRuntime } from './helpers/runtime-process.js';
import { EXAMPLE_KEYS, writeWorkerBundle } from './helpers/worker-example.js';

const dir = mkdtempSync(join(tmpdir(), 'marquee-deno-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeExampleOn({
  runtime: 'Deno',
  compression: 'add-on',
  async start() {
    const deno = runtimeBinary('deno');
    await writeWorkerBundle(dir);
    return startRuntime(
      deno.path,
      ['serve', '--host', '127.0.0.1', '--port', '0', '--allow-env=MARQUEE_KEYS', '--no-config', 'worker.js'],
      {
        cwd: dir,
        env: { MARQUEE_KEYS: EXAMPLE_KEYS, DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1' },
      },
    );
  },
});
