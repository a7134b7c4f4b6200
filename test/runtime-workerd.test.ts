/**
 * examples/worker/ bundled for the browser platform and served by workerd (through miniflare, the
 * runtime `wrangler dev` uses) with the compatibility date of its wrangler.toml and without
 * `nodejs_compat`: no Buffer, no process, no node: module. The real client, `marquee check` and the
 * rest of the contract (helpers/runtime-contract.ts) against it, one workerd for the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { describeExampleOn } from './helpers/runtime-contract.js';
import { bundleWorkerExample, EXAMPLE_DIR, EXAMPLE_KEYS } from './helpers/worker-example.js';

/** The settings of examples/worker/wrangler.toml that workerd needs: `key = "value"` lines. */
function wranglerToml(): Record<string, string> {
  const text = readFileSync(join(EXAMPLE_DIR, 'wrangler.toml'), 'utf8');
  return Object.fromEntries(
    [...text.matchAll(/^([a-z_]+)\s*=\s*(.+)$/gm)].map(([, key, value]) => [key!, value!.trim().replace(/^"|"$/g, '')]),
  );
}

describe('wrangler.toml', () => {
  it('names the example, a compatibility date and no Node compatibility', () => {
    const toml = wranglerToml();
    expect(toml.main).toBe('index.ts');
    expect(toml.compatibility_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(toml.compatibility_flags ?? '').not.toMatch(/nodejs/);
  });
});

describeExampleOn({
  runtime: 'workerd',
  compression: 'platform',
  async start() {
    const { code } = await bundleWorkerExample();
    const toml = wranglerToml();
    const mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.js', contents: code }],
      compatibilityDate: toml.compatibility_date!,
      compatibilityFlags: [],
      bindings: { MARQUEE_KEYS: EXAMPLE_KEYS },
      host: '127.0.0.1',
      port: 0,
    });
    const url = await mf.ready;
    return { url: url.origin, stop: () => mf.dispose() };
  },
});
