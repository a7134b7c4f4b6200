import { type ErrorCode, isMarqueeError } from '../errors.js';
import { jsonError, notFoundResponse, textResponse } from './respond.js';
import type { CoreResponse, Logger } from './types.js';

/** The one place error codes become HTTP statuses. docs/errors.md lists the same table (tested). */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  BAD_REQUEST: 400,
  METHOD_NOT_ALLOWED: 405,
  INVALID_MANIFEST: 500,
  INVALID_RESPONSE: 500,
  HANDLER_FAILED: 500,
  INVALID_CONFIG: 404,
  INVALID_SETTINGS: 500,
  SOURCE_UNREADABLE: 502,
  SOURCE_INVALID: 502,
  SOURCE_TOO_LARGE: 502,
  SOURCE_TIMEOUT: 504,
  SOURCE_FORBIDDEN: 403,
  IMPORT_FAILED: 500,
  STORE_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
  CROSS_SITE_REQUEST: 403,
};

/**
 * The answer to a request that failed: its code's status, a client error's message; never the
 * message of a server error, which may hold a secret (the log has it, under the same request id).
 * @example errorResponse(new MarqueeError('RATE_LIMITED', 'slow down'), 'abc-1').status // 429
 */
export function errorResponse(error: unknown, requestId: string): CoreResponse {
  if (isMarqueeError(error)) {
    const status = STATUS_BY_CODE[error.code];
    if (status === 404) return notFoundResponse();
    if (status === 400) return textResponse(400, 'Bad request');
    if (status < 500) return jsonError(status, error.code, error.message, requestId);
    return jsonError(status, error.code, 'Internal server error', requestId);
  }
  // The client gets no internals (a message may hold a secret); the log has the stack, under the same request id.
  return jsonError(500, 'HANDLER_FAILED', 'Internal server error', requestId);
}

/** The default logger: request lines off, failures (with their stack) to stderr. */
export const STDERR_ERRORS: Logger = {
  requests: false,
  info() {},
  error(record) {
    const { stack, error, ...rest } = record;
    console.error(
      `marquee: request failed ${JSON.stringify(rest)}\n${typeof stack === 'string' ? stack : String(error)}`,
    );
  },
};
