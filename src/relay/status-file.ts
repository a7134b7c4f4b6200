/**
 * The relay's sessions for `marquee status`, which runs in another process: `serve` writes them to
 * a small JSON file beside the database (`<db>.relay.json`, mode 0600: it names channels and
 * hosts), atomically (a temporary file renamed over it) and at most once a second, and removes it
 * when it stops. A reader tells a stale file (its process gone, or no update for a while) from a
 * running relay.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { RelaySessionInfo } from './types.js';

export interface RelayStatus {
  /** The serving process. */
  readonly pid: number;
  /** Epoch ms of this writing. */
  readonly updatedAt: number;
  readonly sessions: readonly RelaySessionInfo[];
  /** The limits in force, for the reader to show. */
  readonly limits: { readonly maxUpstreams: number; readonly maxViewers: number };
}

/** The status file of the database `db`. */
export const relayStatusFile = (db: string): string => `${db}.relay.json`;

/** A file not rewritten for this long is not a running relay's (it writes at least every few seconds). */
const STALE_MS = 15_000;
/** Written at least this often while serving, so a reader can tell it is alive. */
const HEARTBEAT_MS = 5_000;

export interface StatusWriter {
  /** Stops writing and removes the file. */
  stop(): void;
}

/**
 * Writes `read()` to `file` once a second when it changed (every five seconds at least).
 * @example const writer = writeRelayStatus(relayStatusFile(db), () => ({ sessions: relay.sessions(), limits }))
 */
export function writeRelayStatus(
  file: string,
  read: () => Pick<RelayStatus, 'sessions' | 'limits'>,
  onError?: (error: Error) => void,
): StatusWriter {
  let last = '';
  let lastAt = 0;
  const write = () => {
    const now = Date.now();
    const data = read();
    const shown = JSON.stringify(data);
    if (shown === last && now - lastAt < HEARTBEAT_MS) return;
    const status: RelayStatus = { pid: process.pid, updatedAt: now, ...data };
    const temp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(status, null, 2)}\n`, { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, file);
      last = shown;
      lastAt = now;
    } catch (error) {
      rmSync(temp, { force: true });
      onError?.(error as Error);
    }
  };
  write();
  const timer = setInterval(write, 1_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      rmSync(file, { force: true });
    },
  };
}

/** The relay's status as a running `serve` wrote it; undefined when none is running (no file, or a stale one). */
export function readRelayStatus(file: string, now = Date.now()): RelayStatus | undefined {
  let status: RelayStatus;
  try {
    status = JSON.parse(readFileSync(file, 'utf8')) as RelayStatus;
  } catch {
    return undefined;
  }
  if (typeof status.pid !== 'number' || !Array.isArray(status.sessions)) return undefined;
  if (now - status.updatedAt > STALE_MS || !alive(status.pid)) return undefined;
  return status;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
