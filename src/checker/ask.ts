import * as v from 'valibot';
import {
  expectedWrapperKey,
  formatAddonPath,
  type Manifest,
  type ResourcePath,
  validateResponse,
  WRAPPER_KEYS,
} from '../protocol/index.js';
import { asClientReadsItem, calibrate, ITEM_LENIENCY, STREAM_TITLE_AND_DESCRIPTION, valueAt } from './calibration.js';
import type { Findings } from './findings.js';
import { type CacheKind, cacheFindings, corsFinding, timingFindings } from './http-rules.js';
import type { Requester } from './requester.js';
import type { CheckId, ResolvedOptions } from './types.js';

/**
 * One request as the client makes it, and every rule on its answer: transport (timeout, status),
 * HTTP (CORS, cache, time, size), JSON, and `validateResponse` against the request. Findings go
 * to the given check; the caller gets the body only when the client would read it.
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
  readonly cache?: CacheKind;
}

export interface Answer {
  readonly path: string;
  /** Not sent: a bound of the run (budget, deadline, cancellation) stopped it. */
  readonly skipped: boolean;
  readonly status?: number;
  /**
   * The answer the client reads: HTTP 200, JSON, exactly the expected wrapper key; undefined
   * when the client fails the request. Item-level problems may still be in it.
   */
  readonly body?: Record<string, unknown>;
  /** Error findings on this answer's body (the meta page is all-or-nothing on these). */
  readonly bodyErrors: number;
}

const ACCEPTED_BY_CLIENT = 'the client accepts it as it is';

/**
 * Request an add-on path and report everything wrong with the answer.
 *
 * @example const answer = await ask(ctx, { check: 'catalog-genre', request, failure: 'the client shows an error instead of the genre' });
 */
export async function ask(ctx: Context, spec: Ask): Promise<Answer> {
  const path = formatAddonPath(spec.request);
  const exchange = await ctx.requester.get(path);
  if (exchange.outcome === 'skipped') return { path, skipped: true, bodyErrors: 0 };
  const { findings } = ctx;
  findings.ran(spec.check);
  const fail = (message: string): Answer => {
    findings.add({ check: spec.check, severity: 'error', path, message, effect: spec.failure });
    return {
      path,
      skipped: false,
      bodyErrors: 0,
      ...(exchange.status === undefined ? {} : { status: exchange.status }),
    };
  };
  if (exchange.outcome !== 'response') return fail(exchange.reason ?? exchange.outcome);

  findings.ran('http');
  findings.ran('cache');
  for (const f of timingFindings(exchange, ctx.options.slowMs)) findings.add(f);
  for (const f of cacheFindings(exchange, spec.cache ?? 'data')) findings.add(f);
  if (exchange.status !== 200) return fail(statusMessage(exchange.status!, spec.request));

  findings.ran('cors');
  const cors = corsFinding(exchange);
  if (cors) findings.add(cors);

  let body: unknown;
  try {
    body = JSON.parse(exchange.text ?? '');
  } catch {
    return fail(`the body is not JSON (starts with ${JSON.stringify((exchange.text ?? '').slice(0, 40))})`);
  }
  let bodyErrors = 0;
  for (const issue of validateResponse(spec.request, body)) {
    const calibrated =
      issue.severity === 'error'
        ? calibrate(ITEM_LENIENCY, issue.path, issue.message, () => valueAt(body, issue.path ?? '$'))
        : undefined;
    const severity = calibrated?.severity ?? issue.severity;
    if (severity === 'error') bodyErrors++;
    findings.add({
      check: spec.check,
      severity,
      path,
      jsonPath: issue.path,
      message: issue.message,
      effect: calibrated?.effect ?? issue.effect ?? (issue.severity === 'error' ? spec.failure : ACCEPTED_BY_CLIENT),
    });
  }
  if (spec.request.resource === 'stream') {
    const streams = (body as { streams?: unknown } | null)?.streams;
    if (Array.isArray(streams)) {
      streams.forEach((stream, i) => {
        if (typeof stream !== 'object' || stream === null) return;
        const s = stream as Record<string, unknown>;
        if (s.title !== undefined && s.description !== undefined) {
          bodyErrors++;
          findings.add({
            check: spec.check,
            severity: 'error',
            path,
            jsonPath: `$.streams[${i}]`,
            message: STREAM_TITLE_AND_DESCRIPTION.message,
            effect: STREAM_TITLE_AND_DESCRIPTION.effect,
          });
        }
      });
    }
  }
  const readable = clientReads(spec.request, body);
  return { path, skipped: false, status: 200, bodyErrors, ...(readable ? { body: readable } : {}) };
}

/** The body when it carries exactly the wrapper key the client expects for this request. */
function clientReads(request: ResourcePath, body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const present = WRAPPER_KEYS.filter((key) => Object.hasOwn(record, key));
  const expected = expectedWrapperKey(request);
  if (present.length !== 1 || present[0] !== expected) return undefined;
  return record;
}

function statusMessage(status: number, request: ResourcePath): string {
  const wrapper = expectedWrapperKey(request) ?? 'metas';
  const empty = wrapper === 'meta' ? '' : `: answer 200 with { ${wrapper}: [] } when there is nothing`;
  return `answers HTTP ${status} instead of 200${empty}`;
}

/**
 * The items of a list answer that the client keeps (it drops the ones failing their schema).
 *
 * @example validItems(answer.body?.metas, MetaPreviewSchema).length
 */
export function validItems(list: unknown, schema: v.GenericSchema): Array<Record<string, unknown>> {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is Record<string, unknown> => v.is(schema, item) || v.is(schema, asClientReadsItem(item)),
  );
}
