import type { Logger } from '../server/types.js';

/**
 * Log lines for the serve process: JSON lines (one object per line, for log shippers) or a
 * compact human form on a terminal. Records never contain secrets: the server already redacts
 * config segments and query strings from paths.
 */
export function createLogger(
  out: NodeJS.WritableStream,
  options: { format: 'json' | 'pretty'; requests: boolean },
): Logger & {
  event(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
} {
  const write = (level: string, record: Record<string, unknown>) => {
    if (options.format === 'json') {
      out.write(`${JSON.stringify({ time: new Date().toISOString(), level, ...record })}\n`);
      return;
    }
    if (record.status !== undefined) {
      out.write(
        `${String(record.method).padEnd(4)} ${record.status} ${String(record.ms).padStart(7)} ms  ${record.path}\n`,
      );
      return;
    }
    const { msg, message, ...rest } = record;
    const extra = Object.entries(rest)
      .filter(([k, v]) => v !== undefined && k !== 'stack')
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    out.write(`${level === 'info' ? '' : `${level}: `}${msg ?? message ?? ''}${extra ? ` ${extra}` : ''}\n`);
    if (level === 'error' && typeof record.stack === 'string') out.write(`${record.stack}\n`);
  };
  return {
    requests: options.requests,
    info(record) {
      if (record.status === undefined) {
        if (record.notFound !== undefined) return;
        write('info', record);
      } else if (options.requests) write('info', record);
    },
    error(record) {
      write('error', record);
    },
    debug(record) {
      write('debug', record);
    },
    event(message, fields = {}) {
      write('info', { msg: message, ...fields });
    },
    warn(message, fields = {}) {
      write('warn', { msg: message, ...fields });
    },
  };
}
