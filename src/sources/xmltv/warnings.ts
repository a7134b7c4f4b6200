/**
 * Collects the warnings of one guide: batched for the consumer, capped so a guide broken on every
 * line cannot fill memory, and with "once" warnings for problems that repeat by nature (entities).
 */
import type { SourceWarning } from '../records.js';

/** Distinct once-only kinds remembered; a guide inventing more (entity names) gets no more of them. */
const MAX_KINDS = 10_000;

export class WarningSink {
  private batch: SourceWarning[] = [];
  private listed = 0;
  private suppressed = 0;
  private readonly kinds = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly max: number,
  ) {}

  /** Records one warning at a 1-based line. */
  add(line: number | undefined, message: string): void {
    if (this.listed >= this.max) {
      this.suppressed++;
      return;
    }
    this.listed++;
    this.batch.push(line === undefined ? { source: this.source, message } : { source: this.source, line, message });
  }

  /** Records a warning only the first time `kind` is seen. */
  once(kind: string, line: number | undefined, message: string): void {
    if (this.has(kind)) return;
    this.kinds.add(kind);
    this.add(line, message);
  }

  /** True when a warning of `kind` was given (or too many kinds were seen to keep track). */
  has(kind: string): boolean {
    return this.kinds.size >= MAX_KINDS || this.kinds.has(kind);
  }

  /** True when warnings wait to be taken. */
  pending(): boolean {
    return this.batch.length > 0;
  }

  /** The warnings since the last call. */
  take(): SourceWarning[] {
    const taken = this.batch;
    this.batch = [];
    return taken;
  }

  /** Adds the count of warnings past the cap, once, at the end. */
  finish(): void {
    if (this.suppressed === 0) return;
    this.batch.push({ source: this.source, message: `${this.suppressed} more warnings were not listed` });
    this.suppressed = 0;
  }
}
