/**
 * Waiting for the store's write lock without blocking the event loop. The live-TV import has
 * the same loop privately; this copy keeps the library's writers (imports, the add-on manifest
 * cache) independent of that file.
 */
import { isLockError } from '../errors.js';

/**
 * Retries `attempt` while another connection holds the write lock, up to `timeoutMs`.
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
