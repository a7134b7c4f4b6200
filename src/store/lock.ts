/**
 * Waiting for the database write lock without blocking the event loop: SQLite's own busy
 * handler sleeps inside the call, which would freeze a server process for as long as another
 * import runs. Every writer of the store (live-TV and library imports) should start this way.
 */
import { isLockError } from './errors.js';

/**
 * Runs `attempt` (use a connection with a short busy timeout), retrying with backoff while
 * another connection holds the write lock, for at most `timeoutMs`; then rethrows the lock error.
 *
 * @example await withLockRetry(() => db.exec('BEGIN IMMEDIATE'), 60_000)
 */
export async function withLockRetry<T>(attempt: () => T, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
    try {
      return attempt();
    } catch (error) {
      if (!isLockError(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
