/**
 * The benchmark measures the built package (what users run): build dist/ when it is missing or
 * older than any source file, and fingerprint it so cached stores are rebuilt after a change.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir, keep) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path, keep));
    else if (keep(entry.name)) out.push(path);
  }
  return out;
}

/** Build `dist/` with tsc when it is stale; returns what it did. @example ensureBuilt('/work/main') */
export function ensureBuilt(root) {
  const dist = join(root, 'dist');
  const sources = files(join(root, 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
  const newestSource = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  const outputs = existsSync(dist) ? files(dist, (n) => n.endsWith('.js')) : [];
  const oldestOutput = outputs.length ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
  if (outputs.length > 0 && oldestOutput >= newestSource) return 'dist/ is up to date';
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (tsc.status === 0) return 'built dist/ with tsc -p tsconfig.build.json';
  // tsc still emits on type errors; others may be mid-edit in their folders. Measure what was
  // emitted, but say so, and stop only when nothing was.
  const emitted = existsSync(join(dist, 'cli/main.js')) && statSync(join(dist, 'cli/main.js')).mtimeMs >= newestSource;
  if (!emitted) throw new Error(`building dist/ failed:\n${tsc.stdout}${tsc.stderr}`);
  return `built dist/ with tsc -p tsconfig.build.json (with type errors: ${tsc.stdout.split('\n')[0]})`;
}

/** A short hash of every file in dist/: a store imported by another build is not reused. */
export function distFingerprint(root) {
  const hash = createHash('sha1');
  for (const file of files(join(root, 'dist'), (n) => n.endsWith('.js')).sort()) hash.update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}
