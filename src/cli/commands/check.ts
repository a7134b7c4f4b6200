import { formatReport, reportExitCode, runCheck } from '../../checker/index.js';
import { MarqueeError } from '../../errors.js';
import type { Command } from '../command.js';

function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new MarqueeError('INVALID_SETTINGS', `--${flag} must be a positive whole number`);
  return n;
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'check any add-on against the protocol, crawling it the way the real client does',
  usage: 'marquee check <manifest URL> [--json] [--max-requests N] [--concurrency N] [--timeout MS]',
  positionals: { name: 'manifest URL', required: true },
  options: {
    json: { type: 'boolean', description: 'print the report as JSON (for scripts)' },
    'max-requests': { type: 'string', value: 'N', description: 'most requests in the whole run', default: '300' },
    concurrency: { type: 'string', value: 'N', description: 'requests in flight at once', default: '4' },
    timeout: { type: 'string', value: 'MS', description: 'time limit per request in milliseconds', default: '10000' },
    rate: { type: 'string', value: 'N', description: 'requests started per second at most', default: '10' },
    'max-pages': { type: 'string', value: 'N', description: 'pages per catalog and guide day', default: '20' },
    sample: { type: 'string', value: 'N', description: 'items whose meta and streams are requested', default: '20' },
  },
  notes:
    'Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 the add-on could not be checked (or bad flags).',
  async run(values, positionals, io) {
    const [url] = positionals;
    const options = {
      maxRequests: positiveInt(values['max-requests'], 'max-requests'),
      concurrency: positiveInt(values.concurrency, 'concurrency'),
      timeoutMs: positiveInt(values.timeout, 'timeout'),
      rateLimit: positiveInt(values.rate, 'rate'),
      maxPages: positiveInt(values['max-pages'], 'max-pages'),
      sampleSize: positiveInt(values.sample, 'sample'),
    };
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    const showProgress = !values.json && io.stderr.isTTY === true;
    const report = await runCheck(url!, {
      ...defined,
      ...(showProgress
        ? {
            onProgress: (p: { done: number; limit: number; path: string }) =>
              io.stderr.write(`\r\x1b[2K${p.done}/${p.limit} ${p.path.slice(0, 80)}`),
          }
        : {}),
    });
    if (showProgress) io.stderr.write('\r\x1b[2K');
    io.stdout.write(
      values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, { color: io.stdout.isTTY === true }),
    );
    return reportExitCode(report);
  },
};
