import { CHECKS, type CheckId, formatGithub, formatReport, reportExitCode, runCheck } from '../../checker/index.js';
import { MarqueeError } from '../../errors.js';
import type { Command } from '../command.js';

function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new MarqueeError('INVALID_SETTINGS', `--${flag} must be a positive whole number`);
  return n;
}

const FORMATS = ['text', 'json', 'github'] as const;
type Format = (typeof FORMATS)[number];

function format(values: Record<string, unknown>): Format {
  const given = values.format;
  if (given === undefined) return values.json === true ? 'json' : 'text';
  if (!FORMATS.includes(given as Format)) {
    throw new MarqueeError('INVALID_SETTINGS', `--format must be one of ${FORMATS.join(', ')} (got ${String(given)})`);
  }
  return given as Format;
}

function only(value: unknown): CheckId[] | undefined {
  if (typeof value !== 'string') return undefined;
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of ids) {
    if (!CHECKS.some((c) => c.id === id)) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `--only: ${JSON.stringify(id.slice(0, 40))} is not a check; checks are ${CHECKS.map((c) => c.id).join(', ')}`,
      );
    }
  }
  return ids as CheckId[];
}

/** `--id movie:tt0111161` → { type, id }: the type is up to the first colon, the id may hold more. */
function ids(value: unknown): Array<{ type: string; id: string }> | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((text: string) => {
    const colon = text.indexOf(':');
    if (colon <= 0 || colon === text.length - 1) {
      throw new MarqueeError(
        'INVALID_SETTINGS',
        `--id must be TYPE:ID such as movie:tt1254207 (got ${text.slice(0, 60)})`,
      );
    }
    return { type: text.slice(0, colon), id: text.slice(colon + 1) };
  });
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'check any add-on against the protocol, crawling it the way the real client does',
  usage:
    'marquee check <manifest URL> [--format text|json|github] [--only CHECK[,CHECK]] [--id TYPE:ID] [--max-requests N] [--concurrency N] [--timeout MS]',
  positionals: { name: 'manifest URL', required: true },
  options: {
    format: {
      type: 'string',
      value: 'text|json|github',
      description: 'text for a terminal, json for scripts, github for GitHub Actions annotations',
      default: 'text',
    },
    json: { type: 'boolean', description: 'the same as --format json' },
    only: {
      type: 'string',
      value: 'CHECK[,CHECK]',
      description: `report only these checks (${CHECKS.map((c) => c.id).join(', ')})`,
    },
    id: {
      type: 'string',
      multiple: true,
      value: 'TYPE:ID',
      description: 'an item that exists, checked like a catalog item (repeatable), e.g. movie:tt1254207',
    },
    'max-requests': { type: 'string', value: 'N', description: 'most requests in the whole run', default: '300' },
    concurrency: { type: 'string', value: 'N', description: 'requests in flight at once', default: '4' },
    timeout: { type: 'string', value: 'MS', description: 'time limit per request in milliseconds', default: '10000' },
    rate: { type: 'string', value: 'N', description: 'requests started per second at most', default: '10' },
    'max-pages': { type: 'string', value: 'N', description: 'pages per catalog and guide day', default: '20' },
    sample: { type: 'string', value: 'N', description: 'items whose meta and streams are requested', default: '20' },
    'max-genres': { type: 'string', value: 'N', description: 'genres requested per catalog', default: '30' },
    'max-duration': {
      type: 'string',
      value: 'MS',
      description: 'time limit of the whole run in milliseconds',
      default: '120000',
    },
    'max-body-bytes': {
      type: 'string',
      value: 'N',
      description: 'a longer answer is cut off there and reported',
      default: String(16 * 1024 * 1024),
    },
    slow: { type: 'string', value: 'MS', description: 'answers slower than this are a warning', default: '5000' },
  },
  notes:
    'Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 the add-on could not be checked (or bad flags).',
  async run(values, positionals, io) {
    const [url] = positionals;
    const output = format(values);
    const options = {
      maxRequests: positiveInt(values['max-requests'], 'max-requests'),
      concurrency: positiveInt(values.concurrency, 'concurrency'),
      timeoutMs: positiveInt(values.timeout, 'timeout'),
      rateLimit: positiveInt(values.rate, 'rate'),
      maxPages: positiveInt(values['max-pages'], 'max-pages'),
      sampleSize: positiveInt(values.sample, 'sample'),
      maxGenres: positiveInt(values['max-genres'], 'max-genres'),
      maxDurationMs: positiveInt(values['max-duration'], 'max-duration'),
      maxBodyBytes: positiveInt(values['max-body-bytes'], 'max-body-bytes'),
      slowMs: positiveInt(values.slow, 'slow'),
      only: only(values.only),
      ids: ids(values.id),
    };
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    const showProgress = output === 'text' && io.stderr.isTTY === true;
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
      output === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : output === 'github'
          ? formatGithub(report)
          : formatReport(report, { color: io.stdout.isTTY === true }),
    );
    return reportExitCode(report);
  },
};
