/**
 * Run `marquee` commands in-process through `main(argv, io)` with a fake Io: output captured as
 * text, an environment of the test's choosing (nothing leaks in from the real one), a working
 * directory of its own, and a stop signal the test fires instead of SIGTERM.
 */
import { Writable } from 'node:stream';
import type { Io } from '../../src/cli/command.js';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** An output stream that keeps what was written and tells waiters about each write. */
class Capture extends Writable {
  text = '';
  isTTY = false;
  private readonly waiters = new Set<() => void>();
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    for (const wake of this.waiters) wake();
    done();
  }
  /** Resolves with the first match of `pattern` in the text written so far or later. */
  waitFor(pattern: RegExp, timeoutMs: number, exited: Promise<unknown>): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.text);
        if (!match) return false;
        finish();
        resolve(match);
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no ${pattern} in the output within ${timeoutMs} ms; output so far:\n${this.text}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
      };
      const wake = () => void check();
      if (check()) return;
      this.waiters.add(wake);
      exited.then(() => {
        if (!check()) {
          finish();
          reject(new Error(`the command ended without printing ${pattern}; output:\n${this.text}`));
        }
      });
    });
  }
}

export interface CliOptions {
  /** The environment the command sees (default: empty, so MARQUEE_* from the real one never leak in). */
  readonly env?: Record<string, string>;
  /** The working directory (settings files and relative paths are found from it). */
  readonly cwd: string;
}

export interface RunningCli {
  /** Resolves when `main` returns. */
  readonly done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
  /** Wait until stdout matches; fails with the output so far after `timeoutMs` or when the command ends. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Ask the command to stop, as SIGTERM would. */
  stop(signal?: string): void;
  /** Ask the command to reload, as SIGHUP would. */
  reload(): void;
}

/**
 * Start a command and return at once (for `serve`).
 *
 * @example const cli = startCli(['serve', '--port', '0'], { cwd }); await cli.waitForStdout(/manifest: (\S+)/); cli.stop();
 */
export function startCli(argv: string[], options: CliOptions): RunningCli {
  const stdout = new Capture();
  const stderr = new Capture();
  let stop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const reloads = new Set<() => void>();
  const onReload = (listener: () => void) => {
    reloads.add(listener);
    return () => {
      reloads.delete(listener);
    };
  };
  const io: Io = { stdout, stderr, env: options.env ?? {}, cwd: options.cwd, stopped, onReload };
  const done = main(argv, io).then((code) => ({ code, stdout: stdout.text, stderr: stderr.text }));
  return {
    done,
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    waitForStdout: (pattern, timeoutMs = 15_000) => stdout.waitFor(pattern, timeoutMs, done),
    stop: (signal = 'SIGTERM') => stop(signal),
    reload: () => {
      for (const listener of reloads) listener();
    },
  };
}

/**
 * Run a command to its end.
 *
 * @example const { code, stdout } = await runCli(['--version'], { cwd });
 */
export function runCli(argv: string[], options: CliOptions): Promise<CliResult> {
  return startCli(argv, options).done;
}
