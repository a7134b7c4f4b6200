import type { ErrorCode } from '../errors.js';

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
