/**
 * The hosted configure flow. `POST /configure` takes the page's fields (`cfg_playlist`,
 * `cfg_epg`, `cfg_xtreamUrl`, `cfg_xtreamUser`, `cfg_xtreamPass`), encrypts them into a token
 * and starts (or joins) the import of their source set. With `Accept: application/json` it
 * answers once that import has finished: `{ manifestUrl, summary }`, or a 4xx `{ error }` naming
 * the source at fault. For a person it shows the import's progress (the page reloads itself at
 * `/{token}/configure`), then the install link and a summary.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { MarqueeError } from '../errors.js';
import {
  type CoreRequest,
  type CoreResponse,
  configurePage,
  fieldName,
  HTTPS_GUIDE_PATH,
  html,
  pageHeaders,
  type SafeHtml,
  type ServerOptions,
} from '../server/index.js';
import { pageNonce } from '../server/page.js';
import { requestBaseUrl } from '../server/request-path.js';
import type { SetCounts, SetImportResult } from './import.js';
import { HOSTED_FIELDS, type HostedSources, readHostedSources, sourcesToConfig, xtreamAccountOf } from './sources.js';
import type { HostedService } from './types.js';

const MAX_FORM_BYTES = 64 * 1024;

interface ConfigureOptions extends ServerOptions {
  readonly waitMs: number;
  readonly configureWaitMs?: number;
  readonly clientAddress: string;
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): CoreResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      'access-control-allow-origin': '*',
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(text)),
      ...extra,
    },
    body: text,
  };
}

const jsonError = (status: number, code: string, message: string) => json(status, { error: { code, message } });

const summaryOf = (c: SetCounts | undefined) => ({
  channels: c?.channels ?? 0,
  programmes: c?.programmes ?? 0,
  movies: c?.movies ?? 0,
  series: c?.series ?? 0,
});

const number = (n: number) => n.toLocaleString('en-US');

/** "1,234 channels, 1,180 with a guide" (and films and series when there are any). */
export function summaryLine(c: SetCounts): string {
  const parts = [`${number(c.channels)} channel${c.channels === 1 ? '' : 's'}`, `${number(c.withGuide)} with a guide`];
  if (c.movies > 0) parts.push(`${number(c.movies)} film${c.movies === 1 ? '' : 's'}`);
  if (c.series > 0) parts.push(`${number(c.series)} series`);
  return parts.join(', ');
}

/** Status of a result for the user: the first problem of a failed import, or of a source they gave. */
function problemOf(
  result: SetImportResult,
  roots: readonly string[],
): { status: number; code: string; message: string } | undefined {
  const problem = result.problems[0];
  if (!problem) return undefined;
  return { status: 422, code: problem.code, message: withoutPaths(`${problem.field}: ${problem.message}`, roots) };
}

/**
 * The block of addresses one visitor holds, for the per-address import limit: an IPv4 address,
 * or the /64 of an IPv6 address (one home or one server gets a whole /64, and would otherwise
 * have 2^64 fresh addresses to configure from).
 * @example addressBlock('2001:db8:1:2:aa::5') // '2001:db8:1:2::/64'
 */
export function addressBlock(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!bare.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) return bare.replace(/^::ffff:/i, '');
  const [head = '', tail] = bare.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Do the stored values `old` and the form's `raw` name the same Xtream account (server and user)? */
function sameAccount(old: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, unknown>>): boolean {
  const account = xtreamAccountOf(old);
  return account !== undefined && account === xtreamAccountOf(raw);
}

/**
 * Absolute paths of this machine (`/var/lib/marquee/marquee.db.hosted/9cd4….db`, `C:\\…`) cut out
 * of a message for a user: an import failing in the store names its file. The folders the server
 * knows (`roots`: the hosted folder) go first, whole, whatever their names hold (a space ended
 * the generic match, and what followed it was shown); then anything that looks like a path. URLs
 * are left to `scrub` (a path after a host is not at the start of a word).
 * @example withoutPaths("mkdir '/srv/my sets/ab.db.sources'", ['/srv/my sets']) // "mkdir '…'"
 */
export function withoutPaths(message: string, roots: readonly string[] = []): string {
  let out = message;
  for (const root of [...new Set(roots)].filter((r) => r.length > 1).sort((a, b) => b.length - a.length)) {
    out = out.split(root).join('\u0000');
  }
  return out
    .replace(/\u0000[^\s;,'"()]*/g, '…')
    .replace(/(?<![\w.~:/\\-])(?:\/|[A-Za-z]:\\)[^\s;,'"()]*[^\s;,'"().:]/g, '…');
}

/** The hosted folder as a message may name it: as configured, absolute, and with links resolved. */
function folderNames(dir: string): string[] {
  const names = [dir, resolve(dir)];
  try {
    names.push(realpathSync(dir));
  } catch {
    // Not there (yet): the names above are all a message can hold.
  }
  return names;
}

function waitFor<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]);
}

export async function handleHostedConfigure(
  service: HostedService,
  request: CoreRequest,
  segment: string | undefined,
  options: ConfigureOptions,
): Promise<CoreResponse> {
  const base = requestBaseUrl(request, options);
  const roots = folderNames(service.dir);
  const wantsJson = /application\/json/i.test(request.header('accept') ?? '');
  const nonce = pageNonce();
  // Over plain HTTP the install link's section links the HTTPS guide the public handler serves.
  const guide = options.httpsGuide !== undefined ? { httpsGuideUrl: `${base}${HTTPS_GUIDE_PATH}` } : {};
  const page = (status: number, input: Partial<Parameters<typeof configurePage>[0]>, extra = {}): CoreResponse => {
    const body = configurePage({
      manifest: publicManifest(service),
      baseUrl: base,
      nonce,
      values: {},
      ...guide,
      ...input,
    });
    return {
      status,
      headers: {
        'access-control-allow-origin': '*',
        ...pageHeaders(nonce),
        ...extra,
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    };
  };

  let previous: Record<string, unknown> | undefined;
  let token: string | undefined;
  if (segment !== undefined) {
    try {
      token = decodeURIComponent(segment);
    } catch {
      token = undefined;
    }
    previous = token !== undefined ? service.codec.decode(token) : undefined;
    if (!previous) return json(404, { error: { code: 'NOT_FOUND', message: 'this install link is not ours' } });
  }

  let sources: HostedSources | undefined;
  if (request.method === 'POST') {
    if (!request.readBody) throw new MarqueeError('BAD_REQUEST', 'this runtime cannot read a request body');
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(Buffer.from(await request.readBody(MAX_FORM_BYTES)).toString('utf8'));
    } catch {
      return jsonError(413, 'BAD_REQUEST', `the form is larger than ${MAX_FORM_BYTES} bytes`);
    }
    const sentPrevious = form.get('previous') ?? token;
    const old = sentPrevious ? service.codec.decode(sentPrevious) : undefined;
    const raw: Record<string, unknown> = {};
    for (const field of HOSTED_FIELDS) {
      const value = form.get(fieldName(field.key));
      if (value !== null) raw[field.key] = value;
    }
    // An empty password field keeps the stored one, but only for the account it was given for:
    // with another server or user it would be sent to whoever the form now names.
    const kept = old?.xtreamPass;
    if ((raw.xtreamPass ?? '') === '' && kept !== undefined && sameAccount(old!, raw)) raw.xtreamPass = kept;
    const read = readHostedSources(raw);
    if (!read.sources) {
      if (wantsJson) {
        return jsonError(400, 'INVALID_CONFIG', read.problems.map((p) => `${p.key}: ${p.message}`).join('; '));
      }
      const shown = { ...raw };
      delete shown.xtreamPass;
      return page(400, { values: shown, problems: read.problems });
    }
    sources = read.sources;
  } else {
    sources = readHostedSources(previous ?? {}).sources;
    if (!sources) return json(404, { error: { code: 'NOT_FOUND', message: 'this install link is not ours' } });
  }

  const config = sourcesToConfig(sources);
  const encoded = request.method === 'POST' || token === undefined ? service.codec.encode(config) : token;
  const manifestUrl = `${base}/${encodeURIComponent(encoded)}/manifest.json`;
  const key = service.keyOf(sources);
  const shown: Record<string, unknown> = { ...config };
  delete shown.xtreamPass;
  // "Xtream password: unchanged" only where the link holds one: a playlist alone has none.
  const storedPasswords = config.xtreamPass !== undefined && config.xtreamPass !== '' ? ['xtreamPass'] : [];
  const problemPage = (problem: { status: number; code: string; message: string }) => {
    if (wantsJson) return jsonError(problem.status, problem.code, problem.message);
    const field = problem.message.split(':')[0] ?? 'playlist';
    const known = HOSTED_FIELDS.some((f) => f.key === field) ? field : 'playlist';
    return page(problem.status, {
      values: shown,
      problems: [{ key: known, message: problem.message.slice(field.length + 1).trim() || problem.message }],
    });
  };
  // The page that watched a first import (it reloads itself at /{token}/configure): a set that
  // was refused says why, every time, and is not imported again until the form is sent again.
  const refused = request.method === 'POST' ? undefined : service.refusal(key);
  if (refused) return problemPage({ status: 422, code: refused.code, message: withoutPaths(refused.message, roots) });
  // The page is the form's: a first import it starts or joins must be clean to be kept, as the
  // JSON form's (its reloads used to join loosely, and a set with a failed guide was kept).
  const use =
    request.method === 'POST'
      ? service.use(sources, { limitKey: `addr:${addressBlock(options.clientAddress)}`, strict: true })
      : service.use(sources, { strict: true });

  if (!use.ready && !use.importing && use.refused) {
    const status = use.refused.code === 'RATE_LIMITED' ? 429 : 503;
    if (wantsJson) return jsonError(status, use.refused.code, use.refused.message);
    return page(status, { values: shown, notice: html`<p class="errors" role="alert">${use.refused.message}</p>` });
  }

  // A first import: the user waits for it (JSON) or watches it (page). A refresh of a set that
  // already serves data does not hold the user up.
  const first = !use.ready && use.importing !== undefined;
  let result: SetImportResult | undefined;
  let failure: Error | undefined;
  if (first) {
    const limit = wantsJson ? (options.configureWaitMs ?? 600_000) : Math.min(options.waitMs, 5_000);
    try {
      result = await waitFor(use.importing!, limit);
    } catch (error) {
      failure = error as Error;
    }
    if (!result && !failure) {
      if (wantsJson) return jsonError(503, 'IMPORT_FAILED', 'the import is taking too long: try again later');
      const progress = service.progress(key);
      const line = progress
        ? `Importing: ${progress.phase}${progress.records ? `, ${number(progress.records)} entries` : ''}${progress.bytes ? `, ${number(Math.round(progress.bytes / 1024))} KB` : ''}…`
        : 'Waiting for its turn to import…';
      return page(
        202,
        {
          values: shown,
          previous: encoded,
          storedPasswords,
          notice: html`<section class="result" aria-live="polite"><h2>Importing your sources</h2><p>${line}</p><p><a href="${base}/${encodeURIComponent(encoded)}/configure">Refresh</a> (this page reloads itself every 2 seconds)</p></section>`,
        },
        { refresh: `2; url=${base}/${encodeURIComponent(encoded)}/configure` },
      );
    }
  }

  const record = service.record(key);
  const problem = failure
    ? {
        status: 422,
        code: (failure as { code?: string }).code ?? 'IMPORT_FAILED',
        message: withoutPaths(failure.message, roots),
      }
    : result
      ? problemOf(result, roots)
      : !use.ready && record?.lastImport?.outcome === 'failed'
        ? {
            status: 422,
            code: 'SOURCE_INVALID',
            message: withoutPaths(record.lastImport.problem ?? 'the sources could not be imported', roots),
          }
        : undefined;
  if (problem) return problemPage(problem);
  const counts = result?.counts ?? record?.counts;
  if (wantsJson) return json(200, { manifestUrl, summary: summaryOf(counts) });
  const notice: SafeHtml = html`<p class="summary"><strong>${counts ? summaryLine(counts) : ''}</strong></p>`;
  return page(200, { values: shown, previous: encoded, storedPasswords, manifestUrl, notice });
}

function publicManifest(service: HostedService) {
  return {
    ...service.manifest,
    resources: [],
    types: [],
    catalogs: [],
    config: [...HOSTED_FIELDS],
    behaviorHints: { configurable: true, configurationRequired: true },
  } as unknown as Parameters<typeof configurePage>[0]['manifest'];
}
