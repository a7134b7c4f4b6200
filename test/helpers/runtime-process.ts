/**
 * Runtimes from npm (the `bun` and `deno` packages ship their binaries) started as processes of
 * their own: the binary found in node_modules/.bin and checked to run, a server started in a
 * folder of its own, its address read from what it prints, and the whole process group stopped.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Served } from './runtime-contract.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The path of a runtime's binary from its npm package, after checking it runs here (`--version`);
 * throws naming the package and what failed otherwise (a dev dependency: `npm ci` installs it).
 */
export function runtimeBinary(name: 'bun' | 'deno'): { path: string; version: string } {
  const path = join(ROOT, 'node_modules', '.bin', name);
  if (!existsSync(path)) throw new Error(`${path} is missing: the ${name} package is a dev dependency (npm ci)`);
  try {
    const version = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
    return { path, version };
  } catch (error) {
    throw new Error(`${path} (from the ${name} npm package) does not run here: ${(error as Error).message}`);
  }
}

export interface RuntimeProcess extends Served {
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
}

/**
 * Start `command args` in `cwd`, and wait (at most `timeoutMs`) for it to print an http address on
 * stdout or stderr; fails with what it printed when it ends or times out first.
 */
export function startRuntime(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<RuntimeProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.cwd, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const killed = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, 5_000);
      await exited;
      clearTimeout(killed);
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} printed no address within ${options.timeoutMs ?? 30_000} ms:\n${out}`));
    }, options.timeoutMs ?? 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, url: match[0], output: () => out, stop });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${command} ended before it printed an address:\n${out}`));
    });
  });
}
