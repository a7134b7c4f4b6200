#!/usr/bin/env node
/**
 * `npm run bench [-- --quick] [-- --only=http|import|startup|matching|relay]`: builds dist/ if stale, generates
 * the data (cached in bench/.data/), runs the sections and writes bench/results.md (a full run)
 * or bench/.data/results-partial.md (--quick or --only, so committed results are not replaced
 * by a shorter pass).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { distFingerprint, ensureBuilt } from './lib/build.js';
import { dataDir } from './lib/prepare.js';
import { describePinning, pinSelf, stopAll } from './lib/processes.js';
import { writeResults } from './lib/report.js';
import { runHttp } from './sections/http.js';
import { runImport } from './sections/import.js';
import { runMatching } from './sections/matching.js';
import { runRelay } from './sections/relay.js';
import { runStartup } from './sections/startup.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = ['http', 'import', 'startup', 'matching', 'relay'];
const HARD_LIMIT_MS = 20 * 60_000;

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log('usage: npm run bench [-- --quick] [-- --only=http|import|startup|matching|relay]');
  process.exit(0);
}
const only = values.only?.split(',');
for (const name of only ?? []) {
  if (!SECTIONS.includes(name)) {
    console.error(`--only: unknown section ${name}; use one of ${SECTIONS.join(', ')}`);
    process.exit(2);
  }
}
const wants = (name) => !only || only.includes(name);
const quick = values.quick;
const log = (message) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${message}`);
const t0 = performance.now();

// A run must end: past the hard limit everything started is stopped.
const deadline = setTimeout(() => {
  console.error(`bench: over ${HARD_LIMIT_MS / 60_000} minutes, stopping`);
  stopAll().finally(() => process.exit(1));
}, HARD_LIMIT_MS);
deadline.unref();

try {
  pinSelf();
  const build = ensureBuilt(root);
  log(build);
  const dir = dataDir(root);
  const run = { mode: quick ? 'quick' : 'full', only: values.only, build, pinning: describePinning() };
  run.fingerprint = distFingerprint(root);
  if (wants('http')) {
    run.http = await runHttp({
      root,
      dir,
      durationS: quick ? 2 : 6,
      warmupS: quick ? 0.5 : 1.5,
      connections: 20,
      log,
    });
  }
  if (wants('import')) run.imports = await runImport({ root, dir, log });
  if (wants('startup')) {
    run.startup = await runStartup({
      root,
      dir,
      runs: quick ? 3 : 5,
      days: quick ? 1 : 7,
      hotRequests: quick ? 100 : 300,
      log,
    });
  }
  if (wants('matching')) run.matching = await runMatching({ root, dir, log, quick });
  if (wants('relay'))
    run.relay = await runRelay({ root, dir, log, realtimeS: quick ? 16 : 24, saturateS: quick ? 3 : 6 });
  run.totalMs = performance.now() - t0;
  const partial = quick || only;
  const file = writeResults(root, run, partial ? join(dir, '..', 'results-partial.md') : undefined);
  log(`wrote ${file}`);
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
} finally {
  await stopAll();
}
