/**
 * `marquee serve` as a real process (node bin/marquee.js, from dist/, built when missing or older than src/),
 * with its stdout and stderr collected and a way to wait for a line.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'marquee.js');

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/**
 * npm ci builds dist/ (prepare); a checkout without it, or whose src/ changed since (a process
 * from an older build would refuse a store migrated by the code under test), is built here.
 */
export function ensureBuilt(): void {
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  if (existsSync(main) && statSync(main).mtimeMs >= newest(join(ROOT, 'src'))) return;
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
    },
  );
}

export interface ServeChild {
  readonly process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Waits until the output matches `pattern` (or fails after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/**
 * Starts `marquee <args>` in `cwd` (with `env` added); the caller kills it (see `children`).
 * `serve` runs in this process itself (MARQUEE_RELAUNCH=off unless `env` says otherwise): the
 * tests kill it with SIGKILL and remove its folder at once, which a relaunched server, stopping
 * on its own once its parent is gone, would still be writing to. test/cli-relaunch.test.ts
 * covers the relaunch.
 */
export function startMarquee(
  args: readonly string[],
  cwd: string,
  children: ChildProcess[],
  env: NodeJS.ProcessEnv = {},
): ServeChild {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', MARQUEE_RELAUNCH: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => out,
    exited,
    async waitFor(pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`no ${pattern} in the output (exit ${child.exitCode}):\n${out}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** Linux lists a process's children (`childrenOf`): where it does not, tests of the relaunched server are skipped. */
export const PROC = existsSync('/proc/self/task');

/** A process's children (serve's relaunched server under its `marquee` parent), and their command lines. */
export function childrenOf(pid: number): { pid: number; args: string[] }[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .map((child) => {
      try {
        return { pid: child, args: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean) };
      } catch {
        return { pid: child, args: [] };
      }
    });
}

/** Whether a process still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
