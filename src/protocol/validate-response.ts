import * as v from 'valibot';
import { AddonEntrySchema } from './addon-entry.js';
import { checkProgrammes, type PageProgrammeIds } from './guide-rules.js';
import { MetaPreviewSchema, MetaSchema } from './meta.js';
import type { ResourcePath } from './path.js';
import { isRecord, type Json, quote, type ResponseIssue } from './report.js';
import { CacheHintsSchema, MAX_PAGE_SIZE, RESPONSE_KEY, WRAPPER_KEYS, type WrapperKey } from './responses.js';
import { schemaIssues } from './schema-issues.js';
import { StreamSchema, SubtitleSchema } from './stream.js';

/**
 * Response validation: what a handler answered, checked against the request it answers. Used by
 * the server in development mode and by the tests, so it runs on every response. Measured: a
 * 100-channel guide page with 40 programmes per channel (1 MB of JSON) takes about 16 ms on the
 * 2-core dev machine, in the range of gzipping that page, so there is no separate fast path; the
 * production switch is the SDK's `validateResponses: false`. validate-response.test.ts re-measures.
 */

export type { ResponseIssue } from './report.js';

export interface ValidateResponseOptions {
  /**
   * Stop after this many issues (default 200). The checker runs this on other people's add-ons,
   * whose pages can hold thousands of broken items; the first ones say enough.
   */
  readonly maxIssues?: number;
  /**
   * The time the answer is judged at (epoch ms), default now: `streams` on a programme that has
   * started are its catch-up, on one to come they lock it (a warning).
   */
  readonly now?: number;
}

const DEFAULT_MAX_ISSUES = 200;

/** The request a body answers: the parsed path (`extra` as name/value pairs). */
export type ResponseRequest = Pick<ResourcePath, 'resource' | 'type' | 'id' | 'extra'>;

interface ListRule {
  readonly schema: v.GenericSchema;
  readonly effect: string;
}

const LISTS: Partial<Record<WrapperKey, ListRule>> = {
  metas: { schema: MetaPreviewSchema, effect: 'the client drops this item, and paging then miscounts' },
  metasDetailed: { schema: MetaSchema, effect: 'the client drops this channel from the guide' },
  streams: { schema: StreamSchema, effect: 'the client drops this stream' },
  subtitles: { schema: SubtitleSchema, effect: 'the client drops these subtitles' },
  addons: { schema: AddonEntrySchema, effect: 'the client drops this add-on' },
};

const KNOWN_RESPONSE_KEYS: Readonly<Record<string, WrapperKey>> = RESPONSE_KEY;

/**
 * The wrapper key the client reads for this request, or undefined for a resource it never asks.
 *
 * @example expectedWrapperKey({ resource: 'catalog', type: 'tv', id: 'guide', extra: [['date', '2026-01-31']] }) // 'metasDetailed'
 */
export function expectedWrapperKey(request: ResponseRequest): WrapperKey | undefined {
  if (request.resource === 'catalog')
    return request.extra.some(([name]) => name === 'date') ? 'metasDetailed' : 'metas';
  return Object.hasOwn(KNOWN_RESPONSE_KEYS, request.resource) ? KNOWN_RESPONSE_KEYS[request.resource] : undefined;
}

/**
 * Check a response body against its request: one right wrapper key, page size, items per schema,
 * guide rows and programme rules, cache hints. Returns every issue; none means the client keeps it all.
 *
 * @example
 * const issues = validateResponse({ resource: 'stream', type: 'tv', id: 'mq-tv:bbc1', extra: [] }, body);
 * const errors = issues.filter((i) => i.severity === 'error');
 */
export function validateResponse(
  request: ResponseRequest,
  body: unknown,
  options: ValidateResponseOptions = {},
): ResponseIssue[] {
  const limit = options.maxIssues ?? DEFAULT_MAX_ISSUES;
  const out = validateAll(request, body, limit, options.now ?? Date.now());
  if (out.length <= limit) return out;
  const listed = out.slice(0, limit);
  listed.push(error('$', `more than ${limit} issues; the first ${limit} are listed`, 'see the issues above'));
  return listed;
}

function validateAll(request: ResponseRequest, body: unknown, limit: number, now: number): ResponseIssue[] {
  const out: ResponseIssue[] = [];
  if (!isRecord(body)) {
    out.push(error('$', 'a response must be a JSON object with one wrapper key', 'the client fails the request'));
    return out;
  }
  const expected = expectedWrapperKey(request);
  const present = WRAPPER_KEYS.filter((key) => Object.hasOwn(body, key));
  if (present.length === 0) {
    const hint = expected === undefined ? `one of ${WRAPPER_KEYS.join(', ')}` : `{ ${expected}: ... }`;
    out.push(error('$', `has no wrapper key: answer ${hint}`, 'the client fails the request'));
  } else if (present.length > 1) {
    out.push(
      error(
        '$',
        `carries ${present.join(' and ')}: answer with exactly one wrapper key`,
        'the client fails the request',
      ),
    );
  }
  for (const key of present) {
    if (expected !== undefined && key !== expected)
      out.push(error(`$.${key}`, wrongKey(request, key, expected), 'the client ignores the response'));
    checkBody(key, body, out, limit, now);
  }
  checkCacheHints(body, out);
  return out;
}

function wrongKey(request: ResponseRequest, key: WrapperKey, expected: WrapperKey): string {
  if (key === 'metasDetailed') {
    return 'metasDetailed answers only guide requests (with date); Discover, Board and Search read only metas: answer { metas }';
  }
  if (expected === 'metasDetailed')
    return 'a guide request (with date) is answered with { metasDetailed }: full metas with videos';
  return `a ${request.resource} request is answered with { ${expected} }, not { ${key} }`;
}

function checkBody(key: WrapperKey, body: Json, out: ResponseIssue[], limit: number, now: number): void {
  const value = body[key];
  const base = `$.${key}`;
  if (key === 'meta') {
    if (!isRecord(value)) {
      out.push(error(base, 'must be a meta object', 'the client fails the whole meta page'));
      return;
    }
    pushSchema(MetaSchema, value, base, 'the client fails the whole meta page', out);
    const guide = isRecord(value.behaviorHints) && value.behaviorHints.hasScheduledVideos === true;
    checkProgrammes(value, base, guide, new Map(), out, now);
    return;
  }
  const rule = LISTS[key];
  if (rule === undefined) return;
  if (!Array.isArray(value)) {
    out.push(error(base, `must be an array (use [] when there is nothing)`, 'the client fails the request'));
    return;
  }
  if ((key === 'metas' || key === 'metasDetailed') && value.length > MAX_PAGE_SIZE) {
    out.push(
      error(
        base,
        `holds ${value.length} items; a catalog page holds at most ${MAX_PAGE_SIZE}: return the first ${MAX_PAGE_SIZE} and declare skip`,
        'the client pages by the number of items received, so items are skipped or repeated',
      ),
    );
  }
  const ids = new Map<string, number>();
  const programmeIds: PageProgrammeIds = new Map();
  for (let i = 0; i < value.length && out.length <= limit; i++) {
    const item = value[i];
    const path = `${base}[${i}]`;
    pushSchema(rule.schema, item, path, rule.effect, out);
    if (!isRecord(item)) continue;
    if (key === 'metas' || key === 'metasDetailed') checkDuplicateId(item, path, ids, out);
    if (key === 'metasDetailed') checkGuideRow(item, path, programmeIds, out, now);
  }
}

function checkDuplicateId(item: Json, path: string, ids: Map<string, number>, out: ResponseIssue[]): void {
  if (typeof item.id !== 'string') return;
  const first = ids.get(item.id);
  if (first === undefined) ids.set(item.id, ids.size);
  else
    out.push(
      warning(
        `${path}.id`,
        `${quote(item.id)} repeats an earlier item of this page: list each item once`,
        'the client merges them',
      ),
    );
}

function checkGuideRow(
  row: Json,
  path: string,
  programmeIds: PageProgrammeIds,
  out: ResponseIssue[],
  now: number,
): void {
  const effect = 'the client shows no programmes for this channel';
  if (!Array.isArray(row.videos)) {
    out.push(error(`${path}.videos`, 'a guide row is a full meta with videos (the programmes of the day)', effect));
  }
  const hints = isRecord(row.behaviorHints) ? row.behaviorHints : undefined;
  if (hints?.hasScheduledVideos !== true) {
    out.push(error(`${path}.behaviorHints.hasScheduledVideos`, 'must be true on a guide row', effect));
  }
  checkProgrammes(row, path, true, programmeIds, out, now);
}

function checkCacheHints(body: Json, out: ResponseIssue[]): void {
  if (body.cacheMaxAge === undefined && body.staleRevalidate === undefined && body.staleError === undefined) return;
  const parsed = v.safeParse(CacheHintsSchema, body, { abortEarly: false });
  if (parsed.success) return;
  for (const issue of schemaIssues(parsed.issues, '$', 'the server cannot turn it into a Cache-Control header')) {
    out.push({
      severity: 'error',
      ...issue,
      message: `${issue.message}: cache lifetimes are whole seconds, 0 or more`,
    });
  }
}

function pushSchema(schema: v.GenericSchema, item: unknown, path: string, effect: string, out: ResponseIssue[]): void {
  const parsed = v.safeParse(schema, item, { abortEarly: false });
  if (parsed.success) return;
  for (const issue of schemaIssues(parsed.issues, path, effect)) out.push({ severity: 'error', ...issue });
}

function error(path: string, message: string, effect: string): ResponseIssue {
  return { severity: 'error', path, message, effect };
}

function warning(path: string, message: string, effect: string): ResponseIssue {
  return { severity: 'warning', path, message, effect };
}
