#!/usr/bin/env node
/**
 * `node bench/relay.js [--viewers 200] [--seconds 24]`: the relay under a crowd, alone (the same
 * section `npm run bench -- --only=relay` runs; see sections/relay.js and README.md, "Relay"). One
 * live upstream of 8 Mb/s relayed by `marquee serve` to VIEWERS HLS viewers on 127.0.0.1, then
 * the same segments from nginx. Prints the results as JSON. Needs dist/ (built when stale),
 * ffmpeg and nginx.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './lib/build.js';
import { dataDir } from './lib/prepare.js';
import { pinSelf, stopAll } from './lib/processes.js';
import { runRelay } from './sections/relay.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { viewers: { type: 'string', default: '200' }, seconds: { type: 'string', default: '24' } },
});
const t0 = performance.now();
const log = (message) => console.error(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${message}`);
try {
  pinSelf();
  log(ensureBuilt(root));
  const result = await runRelay({
    root,
    dir: dataDir(root),
    viewers: Number(values.viewers),
    realtimeS: Number(values.seconds),
    log,
  });
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
} finally {
  await stopAll();
}
