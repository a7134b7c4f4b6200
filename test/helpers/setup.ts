/**
 * Vitest's global setup: one line naming what this machine lacks for the whole suite (system
 * tools, the corpus), said once before the tests run, instead of a skip nobody notices. Under
 * `CI=true` a missing tool stops the run here: CI must run every test (.ci/run installs them).
 */
import { corpusMissing } from './corpus.js';
import { APT_LINE, inCi, missingTools, TOOLS, type Tool } from './tools.js';

export default function setup(): void {
  const missing = missingTools(Object.keys(TOOLS) as Tool[]);
  if (missing.length > 0) {
    const line = `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`;
    if (inCi()) throw new Error(`CI=true: ${line}; every test must run on CI (${APT_LINE})`);
    process.stdout.write(
      `\nmarquee tests: ${line}: the tests that need ${missing.length === 1 ? 'it' : 'them'} are skipped (${APT_LINE})\n`,
    );
  }
  const corpus = corpusMissing();
  if (corpus !== undefined) {
    process.stdout.write(
      `marquee tests: ${corpus}: the corpus-wide tests are skipped (set MARQUEE_CORPUS to the shared corpus folder to run them)\n`,
    );
  }
}
