/**
 * The Worker example as a deploy bundles it (esbuild, browser platform, minified; see
 * helpers/worker-example.ts): no Node built-in may remain, and it stays under 150 KB. The same
 * bundling of the Node entry names its built-ins, so the first check cannot pass by not looking.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser, bundleWorkerExample } from './helpers/worker-example.js';

/** The ceiling the issue sets for the minified bundle (bench/results.md records its size). */
const MAX_BUNDLE_BYTES = 150_000;

describe('the Worker example bundled for the browser platform', () => {
  it('imports no Node built-in', async () => {
    const bundle = await bundleWorkerExample();
    expect(bundle.nodeImports).toEqual([]);
    expect(bundle.code).not.toMatch(/from\s*["']node:/);
    expect(bundle.code).toMatch(/export\s*\{[^}]*as default/);
  });

  it(`stays under ${MAX_BUNDLE_BYTES / 1000} KB minified`, async () => {
    const bundle = await bundleWorkerExample();
    const largest = bundle.inputs
      .slice(0, 5)
      .map((i) => `${i.path} ${(i.bytes / 1000).toFixed(1)} KB`)
      .join(', ');
    console.log(
      `worker bundle: ${(bundle.bytes / 1000).toFixed(1)} KB minified, ${(bundle.gzipBytes / 1000).toFixed(1)} KB gzip; largest inputs: ${largest}`,
    );
    expect(bundle.bytes, `largest inputs: ${largest}`).toBeLessThan(MAX_BUNDLE_BYTES);
  });

  it('would name the built-ins of a Node-only entry (the check looks)', async () => {
    const node = await bundleForBrowser(join(import.meta.dirname, '..', 'src', 'server', 'index.ts'));
    const names = node.nodeImports.join('\n');
    for (const builtin of ['node:http (', 'node:https (', 'node:zlib (', 'node:worker_threads (', 'node:crypto ('])
      expect(names).toContain(builtin);
    expect(names).toContain('imported by src/server/compress.ts');
  });
});
