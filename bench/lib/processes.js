/**
 * Child processes of the benchmark: servers pinned to one core, measured runs under
 * /usr/bin/time, and a registry that stops every process we started, even on Ctrl-C.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';

const running = new Set();
const HAS_TASKSET = spawnSync('taskset', ['-V']).status === 0;
const HAS_TIME = existsSync('/usr/bin/time');

/** Core layout: the load driver on core 0, servers and measured children on core 1 (when there are 2+ cores). */
export const PINNING = HAS_TASKSET && cpus().length >= 2 ? { driver: '0', server: '1' } : undefined;

/** Describe how processes were placed, for the results. */
export function describePinning() {
  return PINNING
    ? `load driver (this process) pinned to core ${PINNING.driver} with taskset; servers and measured children pinned to core ${PINNING.server}`
    : 'not pinned (taskset missing or a single core): driver and server share the cores';
}

/** Pin this process (every thread) to the driver core. */
export function pinSelf() {
  if (PINNING) spawnSync('taskset', ['-a', '-cp', PINNING.driver, String(process.pid)], { stdio: 'ignore' });
}

/** `taskset -c 1 <command…>` when pinning is possible. */
function pinned(command, args) {
  return PINNING ? ['taskset', ['-c', PINNING.server, command, ...args]] : [command, args];
}

/** Stop one process: SIGTERM, then SIGKILL after `graceMs`. Resolves when it has exited. */
export function stop(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Stop everything still running (on exit or interrupt). */
export async function stopAll() {
  await Promise.all([...running].map((child) => stop(child)));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopAll().finally(() => process.exit(130));
  });
}

/** Spawn `command` on core 1, piping its output; it is stopped by `stopAll` if still running. */
export function spawnPinned(command, args, { cwd } = {}) {
  const [cmd, argv] = pinned(command, args);
  const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** A free port on 127.0.0.1 (for a server whose port must be known before it prints it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start a server on core 1 and wait until its output matches `ready` (whose first group is
 * the URL). Rejects with its output when it exits first or takes longer than `timeoutMs`.
 *
 * @example const s = await startServer('node', ['bench/servers/bare.js', file], /listening (\S+)/); await s.stop();
 */
export function startServer(command, args, ready, { timeoutMs = 120_000, cwd, onLine } = {}) {
  const started = performance.now();
  const child = spawnPinned(command, args, { cwd });
  let output = '';
  return new Promise((resolve, reject) => {
    let found = false;
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`${command} ${args.join(' ')} not ready after ${timeoutMs} ms:\n${output.slice(-2000)}`));
    }, timeoutMs);
    let partial = '';
    child.stdout.on('data', (chunk) => {
      const text = partial + chunk.toString();
      const lines = text.split('\n');
      partial = lines.pop();
      for (const line of lines) {
        if (found) {
          onLine?.(line);
          continue;
        }
        output += `${line}\n`;
        const match = ready.exec(line);
        if (match) {
          found = true;
          clearTimeout(timer);
          resolve({ url: match[1], child, startupMs: performance.now() - started, stop: () => stop(child) });
        }
      }
    });
    child.stderr.on('data', (chunk) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}):\n${output.slice(-2000)}`));
    });
  });
}

/**
 * Run a command to completion on core 1 (`cores: 'all'`: on every core) under `/usr/bin/time -v`:
 * wall time, peak RSS (KiB), CPU time (user + system, ms), its output and exit code. Throws with
 * the output when it exits with a code not in `okCodes` (default: only 0).
 */
export function runMeasured(command, args, { cwd, timeoutMs = 600_000, cores = 'one', env, okCodes = [0] } = {}) {
  // Every core: this process is pinned to the driver core, and children inherit that.
  const [cmd, argv] =
    cores === 'all' && HAS_TASKSET
      ? ['taskset', ['-c', `0-${cpus().length - 1}`, command, ...args]]
      : pinned(command, args);
  const [bin, binArgs] = HAS_TIME ? ['/usr/bin/time', ['-v', cmd, ...argv]] : [cmd, argv];
  const started = performance.now();
  const child = spawn(bin, binArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const wallMs = performance.now() - started;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      if (!okCodes.includes(code)) {
        reject(
          new Error(`${command} ${args.join(' ')} failed (${code ?? signal}):\n${(stderr || stdout).slice(-3000)}`),
        );
        return;
      }
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpuMs = user && system ? (Number(user[1]) + Number(system[1])) * 1000 : undefined;
      resolve({ wallMs, peakRssKiB: rss ? Number(rss[1]) : undefined, cpuMs, stdout, stderr, code });
    });
  });
}
