/**
 * Import progress on stderr: a bar redrawn in place on a terminal (bytes, records, rate, ETA),
 * plain lines at most every few seconds otherwise (CI logs, systemd).
 */
export interface ProgressEvent {
  readonly phase: string;
  readonly source?: string;
  readonly bytes?: number;
  readonly totalBytes?: number;
  readonly records?: number;
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

function eta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
}

export function createProgress(
  out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  now: () => number = Date.now,
) {
  const tty = out.isTTY === true;
  let key = '';
  let started = now();
  let lastPrint = 0;
  let drawn = false;

  function line(e: ProgressEvent): string {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const parts = [`${e.phase}${e.source ? ` ${e.source}` : ''}`];
    if (e.bytes !== undefined) {
      const rate = e.bytes / seconds;
      if (e.totalBytes) {
        const ratio = Math.min(e.bytes / e.totalBytes, 1);
        const width = 24;
        const filled = Math.round(ratio * width);
        parts.push(`[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}%`);
        parts.push(`${mb(e.bytes)}/${mb(e.totalBytes)}`);
        parts.push(`${mb(rate)}/s`);
        if (ratio < 1) parts.push(`ETA ${eta((e.totalBytes - e.bytes) / rate)}`);
      } else {
        parts.push(mb(e.bytes), `${mb(rate)}/s`);
      }
    }
    if (e.records !== undefined) parts.push(`${e.records.toLocaleString('en-US')} records`);
    return parts.join('  ');
  }

  return {
    update(e: ProgressEvent) {
      const k = `${e.phase}|${e.source ?? ''}`;
      if (k !== key) {
        if (drawn && tty) out.write('\n');
        key = k;
        started = now();
        drawn = false;
        lastPrint = 0;
      }
      const t = now();
      if (tty) {
        if (t - lastPrint < 100 && drawn) return;
        const text = line(e).slice(0, Math.max((out.columns ?? 100) - 1, 20));
        out.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else {
        if (t - lastPrint < 5_000 && drawn) return;
        out.write(`${line(e)}\n`);
        drawn = true;
      }
      lastPrint = t;
    },
    done() {
      if (drawn && tty) out.write('\n');
      drawn = false;
      key = '';
    },
  };
}
