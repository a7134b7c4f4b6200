import {
  assertCheckIds,
  formatGithub,
  formatReport,
  reportExitCode,
  runCheck,
  selectChecks,
} from '../../checker/index.js';
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
  usage:
    'marquee check <manifest URL> [--format text|json|github] [--only CHECK[,CHECK]] [--max-requests N] [--concurrency N] [--timeout MS]',
  positionals: { name: 'manifest URL', required: true },
  options: {
    json: { type: 'boolean', description: 'print the report as JSON (for scripts; the same as --format json)' },
    format: {
      type: 'string',
      value: 'text|json|github',
      description: 'text for people, json for scripts, github for GitHub Actions annotations',
      default: 'text',
    },
    id: {
      type: 'string',
      multiple: true,
      value: 'TYPE:ID',
      description:
        'also request the meta and streams of this item (e.g. movie:tt0111161), for an add-on without catalogs',
    },
    only: {
      type: 'string',
      value: 'CHECK[,CHECK]',
      description:
        'report only these checks (ids as in --json: manifest, stream, cache, …); the exit code follows them',
    },
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
    const format = values.json === true ? 'json' : typeof values.format === 'string' ? values.format : 'text';
    if (format !== 'text' && format !== 'json' && format !== 'github') {
      throw new MarqueeError('INVALID_SETTINGS', `--format must be text, json or github, got "${format}"`);
    }
    const only =
      typeof values.only === 'string'
        ? values.only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
    if (only) assertCheckIds(only);
    const ids = (Array.isArray(values.id) ? values.id : []).map((given) => {
      const at = given.indexOf(':');
      if (at <= 0 || at === given.length - 1) {
        throw new MarqueeError('INVALID_SETTINGS', `--id must be TYPE:ID (e.g. movie:tt0111161), got "${given}"`);
      }
      return { type: given.slice(0, at), id: given.slice(at + 1) };
    });
    const showProgress = format === 'text' && io.stderr.isTTY === true;
    const full = await runCheck(url!, {
      ...defined,
      ...(ids.length > 0 ? { ids } : {}),
      ...(showProgress
        ? {
            onProgress: (p: { done: number; limit: number; path: string }) =>
              io.stderr.write(`\r\x1b[2K${p.done}/${p.limit} ${p.path.slice(0, 80)}`),
          }
        : {}),
    });
    if (showProgress) io.stderr.write('\r\x1b[2K');
    const report = only ? selectChecks(full, only) : full;
    io.stdout.write(
      format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : format === 'github'
          ? formatGithub(report)
          : formatReport(report, { color: io.stdout.isTTY === true }),
    );
    return reportExitCode(report);
  },
};
