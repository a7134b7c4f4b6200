/**
 * Who watches a session: HLS viewers by the id in their path, each counted while it asks for
 * something (a player asks every target duration; one quiet for three of them, six seconds at
 * least, has left), and continuous viewers while connected. The session is idle from the first
 * sweep that finds nobody, and closes `idleMs` after that.
 */
export class Viewers {
  /** HLS viewers by id: when each last asked for something. */
  readonly hls = new Map<string, number>();
  /** Continuous MPEG-TS viewers connected now. */
  continuous = 0;
  #idleSince: number | undefined;

  /** HLS and continuous viewers now. */
  get count(): number {
    return this.hls.size + this.continuous;
  }

  /** True once a sweep found nobody (a session still starting is not idle: its first viewer is on the way). */
  get idle(): boolean {
    return this.#idleSince !== undefined;
  }

  touch(viewer: string, now: number): void {
    this.hls.set(viewer, now);
    this.#idleSince = undefined;
  }

  /** A continuous viewer joins (+1) or leaves (-1). */
  connected(change: 1 | -1): void {
    this.continuous += change;
    if (change > 0) this.#idleSince = undefined;
  }

  /** Viewers quiet for `ttlMs` leave; true when nobody has watched for `idleMs`: the session should close. */
  sweep(now: number, ttlMs: number, idleMs: number): boolean {
    for (const [viewer, seen] of this.hls) if (now - seen > ttlMs) this.hls.delete(viewer);
    if (this.count > 0) {
      this.#idleSince = undefined;
      return false;
    }
    this.#idleSince ??= now;
    return now - this.#idleSince >= idleMs;
  }
}
