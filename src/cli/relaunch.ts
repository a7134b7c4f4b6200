/**
 * `marquee serve` runs with V8's memory reducer off. After a mark-compact, an idle spell of about
 * eight seconds lets V8 run a "reducing" collection that shrinks the young generation to its
 * minimum; a server answering small pages then scavenges three times as often and answered meta
 * pages 20-30% slower for the rest of its life (bench/README.md, "After an idle pause"). A server
 * that goes quiet between bursts meets exactly that. The flag cannot be set from inside a running
 * process (V8 creates the reducer with the heap), and no portable shebang carries it (BusyBox
 * `env` has no `-S`), so the bin starts the server as a child of its own with the flag:
 *
 * - the child is in a process group of its own, so a Ctrl-C reaches it once, forwarded by the
 *   parent (SIGINT, SIGTERM and SIGHUP are forwarded);
 * - its standard streams are the parent's (nothing is piped through);
 * - the parent exits with the child's exit code, or dies of the child's signal;
 * - if the parent dies (SIGKILL), the child sees its IPC channel close and stops as on SIGTERM;
 * - once stopping, the child tells the parent its bound (`shutdownSeconds`; 2 s for an import):
 *   a child still alive a little after it (its main thread held by a synchronous step, so its own
 *   timer cannot fire) is killed, and the parent exits 1.
 *
 * `marquee import` is relaunched the same way on Linux, with glibc's malloc settings instead of a
 * flag (IMPORT_ENV below), unless a `MALLOC_*` variable is already set.
 *
 * Not relaunched: when the flag (or `--memory-reducer` either way) is already among Node's
 * options, when MARQUEE_RELAUNCH=off, inside a cluster worker (the listening socket is the
 * primary's), under pm2 (it watches the PID it started; give the flag in its `node_args`), on
 * Windows, and for every command but `serve`. If the child cannot be started, the server runs in
 * this process as before.
 *
 * This module imports nothing but Node's: the parent loads no more than it needs to wait.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * In the relaunched child: resolves when the parent is gone (its IPC channel closed), and keeps
 * the channel from holding the process open. Never resolves elsewhere.
 */
export function parentGone(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const channel = process.channel;
  if (env.MARQUEE_RELAUNCHED !== '1' || channel === undefined) return new Promise(() => {});
  channel.unref();
  return new Promise((resolve) => {
    process.once('disconnect', () => resolve());
  });
}

/** A SIGHUP that arrives before any listener: taken, and nothing done (see holdHangups). */
function ignoreHangup(): void {}

/**
 * `serve` (the parent and the relaunched child alike): SIGHUP asks for a reload and must never
 * end the process, whose default action on it is to die (exit 129). Called first thing, before
 * the modules that register the real listeners are loaded; idempotent.
 */
export function holdHangups(argv: readonly string[] = ['serve'], env: NodeJS.ProcessEnv = process.env): void {
  if (argv[0] !== 'serve' || process.listeners('SIGHUP').includes(ignoreHangup)) return;
  process.on('SIGHUP', ignoreHangup);
  // A relaunched child tells its parent, which until then keeps a SIGHUP for later: the child's
  // first tenth of a second (Node starting, before any of this runs) would die of it.
  if (env.MARQUEE_RELAUNCHED === '1' && process.send !== undefined) {
    try {
      process.send({ marqueeHangupsHeld: true } satisfies ChildMessage);
    } catch {
      // No parent to tell.
    }
  }
}

/**
 * What a relaunched child tells its parent: that SIGHUP no longer ends it, and once it stops, the
 * longest the stop may take.
 */
interface ChildMessage {
  readonly marqueeHangupsHeld?: true;
  readonly marqueeStopWithinMs?: number;
}

/** Margin the parent gives the child past its own bound before killing it. */
const PARENT_MARGIN_MS = 2_000;

/** In a relaunched child: tell the parent how long the stop that began may take at most. */
export function tellParentStopBound(ms: number, env: NodeJS.ProcessEnv = process.env): void {
  if (env.MARQUEE_RELAUNCHED !== '1' || process.send === undefined || !process.connected) return;
  try {
    process.send({ marqueeStopWithinMs: ms } satisfies ChildMessage);
  } catch {
    // The parent is gone: nobody to tell.
  }
}

/** Node options `marquee serve` runs with. */
export const SERVE_NODE_OPTIONS: readonly string[] = ['--no-memory-reducer'];

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** V8 accepts `-` and `_` alike in a flag's name. */
function mentionsMemoryReducer(option: string): boolean {
  return /^--(no-?)?memory[-_]reducer(=|$)/.test(option);
}

/**
 * Whether `command` may be relaunched at all: it is the one asked for, not for its help, not
 * turned off or done already, and not run by a cluster primary or pm2 (which watch this PID).
 */
function mayRelaunch(command: string, argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (argv[0] !== command) return false;
  if (argv.includes('--help') || argv.includes('-h')) return false;
  if (env.MARQUEE_RELAUNCH === 'off' || env.MARQUEE_RELAUNCHED === '1') return false;
  return env.NODE_UNIQUE_ID === undefined && env.pm_id === undefined;
}

/**
 * The Node options to relaunch with, or undefined when this process runs the command itself.
 * @example relaunchOptions(['serve', '--demo'], [], {}) // ['--no-memory-reducer']
 */
export function relaunchOptions(
  argv: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): readonly string[] | undefined {
  if (!mayRelaunch('serve', argv, env)) return undefined;
  // Windows has no process groups or forwarded signals to speak of, and a detached child there
  // opens a console of its own.
  if (platform === 'win32') return undefined;
  if (execArgv.some(mentionsMemoryReducer)) return undefined;
  return SERVE_NODE_OPTIONS;
}

/**
 * glibc's malloc settings `marquee import` runs with. A gzip guide is inflated in 256 KiB
 * buffers; once one of them, mmapped, is freed, glibc raises its mmap threshold to that size and
 * serves the next ones from the threads' arenas, which keep what is freed: the benchmark import's
 * peak RSS then varied from 184 to 228 MB from run to run. Two arenas hold it at 185-187 MB, at the
 * same speed (bench/results.md, 2026-11-26 12:25). Read by glibc at process start only, hence the
 * relaunch; other C libraries ignore them.
 */
export const IMPORT_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * The environment to relaunch `marquee import` with, or undefined when it runs in this process:
 * on Linux, when no malloc setting was given, and under the same exceptions as `serve`.
 * @example relaunchEnv(['import', '--db', 'x.db'], {}) // { MALLOC_ARENA_MAX: '2' }
 */
export function relaunchEnv(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Readonly<Record<string, string>> | undefined {
  if (platform !== 'linux' || !mayRelaunch('import', argv, env)) return undefined;
  if (Object.keys(env).some((name) => name.startsWith('MALLOC_'))) return undefined;
  return IMPORT_ENV;
}

/**
 * Runs this same command in a child Node with `options`, and `env` added to this one's, and
 * mirrors its end. Resolves false when the child could not be started (the caller then runs the
 * command itself); otherwise it never resolves before the child has ended, and the process exits
 * as the child did.
 */
export function relaunch(options: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...process.execArgv, ...options, ...process.argv.slice(1)], {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: { ...process.env, ...env, MARQUEE_RELAUNCHED: '1' },
        detached: true,
      });
    } catch {
      resolve(false);
      return;
    }
    // `serve`'s child says when SIGHUP stops being deadly to it; one that comes before is kept until then.
    let hangupsHeld = process.argv[2] !== 'serve';
    let hangupWaiting = false;
    const forward = (signal: NodeJS.Signals) => {
      if (signal === 'SIGHUP' && !hangupsHeld) hangupWaiting = true;
      else child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    const unforward = () => {
      for (const signal of FORWARDED) process.off(signal, forward);
    };
    child.once('error', () => {
      // Not started (the only error before 'spawn'): run here instead.
      if (child.pid === undefined) {
        unforward();
        resolve(false);
      }
    });
    // The child's stop has a bound; a child still running past it (and the margin) is killed.
    let killedAt: number | undefined;
    child.on('message', (message: ChildMessage | null) => {
      if (message?.marqueeHangupsHeld === true && !hangupsHeld) {
        hangupsHeld = true;
        if (hangupWaiting) child.kill('SIGHUP');
      }
      const ms = message?.marqueeStopWithinMs;
      if (typeof ms !== 'number' || !(ms > 0)) return;
      setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        killedAt = Date.now();
        child.kill('SIGKILL');
      }, ms + PARENT_MARGIN_MS).unref();
    });
    child.once('exit', (code, signal) => {
      unforward();
      if (killedAt !== undefined) {
        process.stderr.write(
          `marquee: the ${process.argv[2] ?? 'command'} process did not stop within its bound: killed\n`,
        );
        process.exitCode = 1;
        return;
      }
      if (signal !== null) {
        // Die of it as the child did, even of a signal this process holds (SIGHUP).
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
        return;
      }
      process.exitCode = code ?? 1;
    });
  });
}
