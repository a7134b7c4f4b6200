import * as v from 'valibot';
import {
  expectedWrapperKey,
  formatAddonPath,
  type Manifest,
  type ResourcePath,
  validateResponse,
  WRAPPER_KEYS,
} from '../protocol/index.js';
import { CLIENT, type ClientIssue, clientMetaIssues, clientPreviewIssues, clientStreamIssues } from './client-model.js';
import type { Findings } from './findings.js';
import { type CacheKind, cacheFindings, corsFinding, timingFindings } from './http-rules.js';
import type { Requester } from './requester.js';
import type { CheckId, ResolvedOptions, Severity } from './types.js';

/**
 * One request as the client makes it, and every rule on its answer: transport (timeout, status),
 * HTTP (CORS, cache, time, size), JSON, the client model (client-model.ts: what the client
 * drops or fails, the errors) and Marquee's stricter `validateResponse` (what only the spec or
 * the SDK asks for, the warnings). The caller gets the body only when the client would read it.
 */

/** What every step of a run shares. */
export interface Context {
  readonly manifest: Manifest;
  readonly requester: Requester;
  readonly findings: Findings;
  readonly options: ResolvedOptions;
  /** Record that a bound cut the crawl short here (a crawl note; the report is then incomplete). */
  cut(path: string, message: string): void;
}

export interface Ask {
  readonly check: CheckId;
  readonly request: ResourcePath;
  /** What the client does when it gets no usable answer (said on timeouts, non-200, non-JSON). */
  readonly failure: string;
  /**
   * Severity of a failed request, or a function of its HTTP status (default error; a later
   * catalog page only ends the list, an unknown id may fail).
   */
  readonly failureSeverity?: Severity | ((status: number | undefined) => Severity | undefined);
  /** Said in front of failure messages (`an id the add-on cannot have`). */
  readonly label?: string;
  readonly cache?: CacheKind;
}

export interface Answer {
  readonly path: string;
  /** Not sent: a bound of the run (budget, deadline, cancellation) stopped it. */
  readonly skipped: boolean;
  readonly status?: number;
  /**
   * The answer the client reads: HTTP 200, JSON, exactly the expected wrapper key (a null list
   * read as []); undefined when the client fails the request. Dropped items may still be in it.
   */
  readonly body?: Record<string, unknown>;
  /** Why the request failed, when it did (a status, a timeout, a body the client cannot read). */
  readonly failed?: string;
}

/** The effect of a rule only Marquee's protocol schemas (spec, official SDK) make: the client is fine. */
export const SPEC_ONLY = `spec/SDK rule; the client (${CLIENT}) accepts it, other clients may not`;
const GUIDE_SPEC =
  'spec: guide rows are full Meta objects with videos and hasScheduledVideos: true; a programme has startTime and endTime, endTime strictly later; a video without them is not on the grid';
const DROPS: Record<string, string> = {
  metas: 'the client drops this item (the rest of the page is kept) and counts only kept items in skip',
  streams: 'the client drops this stream (the others are kept)',
};

/**
 * Request an add-on path and report everything wrong with the answer.
 *
 * @example const answer = await ask(ctx, { check: 'catalog-genre', request, failure: 'the client shows an error instead of the genre' });
 */
export async function ask(ctx: Context, spec: Ask): Promise<Answer> {
  const path = formatAddonPath(spec.request);
  const exchange = await ctx.requester.get(path);
  if (exchange.outcome === 'skipped') return { path, skipped: true };
  const { findings } = ctx;
  findings.ran(spec.check);
  const failureSeverity = (): Severity | undefined =>
    typeof spec.failureSeverity === 'function'
      ? spec.failureSeverity(exchange.status)
      : (spec.failureSeverity ?? 'error');
  const fail = (rule: string, message: string, jsonPath?: string): Answer => {
    const severity = failureSeverity();
    if (severity !== undefined) {
      findings.add({
        check: spec.check,
        severity,
        rule,
        path,
        ...(jsonPath === undefined ? {} : { jsonPath }),
        message: spec.label === undefined ? message : `${spec.label}: ${message}`,
        effect: spec.failure,
      });
    }
    return {
      path,
      skipped: false,
      failed: message,
      ...(exchange.status === undefined ? {} : { status: exchange.status }),
    };
  };
  if (exchange.outcome !== 'response') return fail(`http.${exchange.outcome}`, exchange.reason ?? exchange.outcome);

  findings.ran('http');
  findings.ran('cache');
  for (const f of timingFindings(exchange, ctx.options.slowMs)) findings.add(f);
  for (const f of cacheFindings(exchange, spec.cache ?? 'data')) findings.add(f);
  if (exchange.status !== 200) return fail('http.status', statusMessage(exchange.status!, spec.request));

  findings.ran('cors');
  const cors = corsFinding(exchange);
  if (cors) findings.add(cors);

  let body: unknown;
  try {
    body = JSON.parse(exchange.text ?? '');
  } catch {
    return fail(
      'http.json',
      `the body is not JSON (starts with ${JSON.stringify((exchange.text ?? '').slice(0, 40))})`,
    );
  }
  const read = clientRead(spec.request, body);
  if ('fails' in read) return fail(read.fails.rule, read.fails.message, read.fails.path);

  const guide = expectedWrapperKey(spec.request) === 'metasDetailed';
  const clientPaths = new Set<string>();
  for (const issue of read.issues) {
    clientPaths.add(issue.path);
    // `{ meta: null }` is how some add-ons say "unknown id": as bad as a failed request, no worse.
    const severity = issue.rule === 'meta.null' ? failureSeverity() : 'error';
    if (severity === undefined) continue;
    findings.add({
      check: spec.check,
      severity,
      rule: issue.rule,
      path,
      jsonPath: issue.path,
      message:
        spec.label === undefined || issue.rule !== 'meta.null' ? issue.message : `${spec.label}: ${issue.message}`,
      effect: read.key === 'meta' ? spec.failure : (DROPS[read.key] ?? spec.failure),
    });
  }
  if (read.key === 'meta' && read.issues.length > 0) {
    return { path, skipped: false, status: 200, failed: 'the client cannot read the meta' };
  }
  for (const issue of validateResponse(spec.request, body)) {
    if (clientPaths.has(issue.path)) continue;
    // The published client has no guide yet: guide rules are the spec's, and keep their severity.
    const severity = guide ? issue.severity : 'warning';
    const empty = emptyImage(body, issue.path);
    findings.add({
      check: spec.check,
      severity,
      rule: guide ? 'guide.spec' : 'spec.schema',
      path,
      jsonPath: issue.path,
      message: empty ? empty.message : issue.message,
      effect:
        guide && !empty
          ? GUIDE_SPEC
          : (empty?.effect ?? (issue.severity === 'warning' && issue.effect ? issue.effect : SPEC_ONLY)),
    });
  }
  return { path, skipped: false, status: 200, body: read.body };
}

type Read =
  | { readonly fails: ClientIssue }
  | { readonly key: string; readonly body: Record<string, unknown>; readonly issues: ClientIssue[] };

/** How the client reads a 200 JSON answer: fails it, or reads it (issues: dropped items, or a failed meta). */
function clientRead(request: ResourcePath, body: unknown): Read {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      fails: { rule: 'response.object', path: '$', message: 'a response must be a JSON object with one wrapper key' },
    };
  }
  const record = body as Record<string, unknown>;
  const present = WRAPPER_KEYS.filter((key) => Object.hasOwn(record, key));
  const expected = expectedWrapperKey(request) ?? 'metas';
  if (present.length === 0) {
    return {
      fails: { rule: 'response.wrapper', path: '$', message: `has no wrapper key: answer { ${expected}: ... }` },
    };
  }
  if (present.length > 1) {
    return {
      fails: {
        rule: 'response.wrappers',
        path: '$',
        message: `carries ${present.join(' and ')}: answer with exactly one wrapper key`,
      },
    };
  }
  const key = present[0]!;
  if (key !== expected) {
    return {
      fails: {
        rule: 'response.wrong-wrapper',
        path: `$.${key}`,
        message: `a ${request.resource}${expected === 'metasDetailed' ? ' guide' : ''} request is answered with { ${expected} }, not { ${key} }`,
      },
    };
  }
  if (key === 'meta') return { key, body: record, issues: clientMetaIssues(record.meta, '$.meta') };
  const list = record[key];
  if (list === null) return { key, body: { ...record, [key]: [] }, issues: [] };
  if (!Array.isArray(list)) {
    return {
      fails: { rule: 'response.list', path: `$.${key}`, message: 'must be an array (use [] when there is nothing)' },
    };
  }
  const issues =
    key === 'metas'
      ? list.flatMap((item, i) => clientPreviewIssues(item, `$.metas[${i}]`))
      : key === 'streams'
        ? list.flatMap((item, i) => clientStreamIssues(item, `$.streams[${i}]`))
        : [];
  return { key, body: record, issues };
}

function statusMessage(status: number, request: ResourcePath): string {
  const wrapper = expectedWrapperKey(request) ?? 'metas';
  const empty = wrapper === 'meta' ? '' : `: answer 200 with { ${wrapper}: [] } when there is nothing`;
  return `answers HTTP ${status} instead of 200${empty}`;
}

/**
 * The catalog items of a list the client keeps (it drops the ones its model rejects).
 *
 * @example keptPreviews(answer.body?.metas).length
 */
export function keptPreviews(list: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(list)) return [];
  return list.filter((item, i): item is Record<string, unknown> => clientPreviewIssues(item, `$[${i}]`).length === 0);
}

/**
 * The items of a list answer that pass a schema (guide rows, which the published client cannot test).
 *
 * @example validItems(answer.body?.metasDetailed, MetaSchema).length
 */
export function validItems(list: unknown, schema: v.GenericSchema): Array<Record<string, unknown>> {
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is Record<string, unknown> => v.is(schema, item));
}

/** Image fields the client reads `""` in as "no image" (test/checker-notes.test.ts asks the client). */
const IMAGE_FIELDS = new Set(['poster', 'background', 'logo']);

/**
 * What to say of an image field given as `""`: the spec wants an absolute URL, and the client
 * keeps the item, reading the field as no image. Undefined for any other issue.
 */
function emptyImage(body: unknown, path: string): { message: string; effect: string } | undefined {
  const field = /\.([A-Za-z]+)$/.exec(path)?.[1];
  if (field === undefined || !IMAGE_FIELDS.has(field) || valueAt(body, path) !== '') return undefined;
  const what = /\.meta\.[A-Za-z]+$/.test(path) ? 'meta' : 'item';
  return {
    message: `is "" (empty): leave ${field} out when there is no image (the spec wants an absolute URL)`,
    effect: `the client keeps the ${what} and reads "" as no ${field}`,
  };
}

/** The value at a JSON path of `$.x[1].y` form, or undefined. */
function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const [, name, index] of path.slice(1).matchAll(/\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]/g)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[name ?? Number(index)];
  }
  return value;
}
