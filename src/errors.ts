/**
 * The one error base class of Marquee. Every error carries a stable `code`; the server maps
 * codes to HTTP statuses in one place (server/errors.ts), and docs/errors.md lists them.
 *
 * @example throw new MarqueeError('NOT_FOUND', 'no catalog movie/top')
 */
export class MarqueeError extends Error {
  readonly code: ErrorCode;
  override readonly cause?: unknown;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message);
    this.name = 'MarqueeError';
    this.code = code;
    if (options?.cause !== undefined) this.cause = options.cause;
    if (options?.details !== undefined) this.details = options.details;
  }
}

/** Stable error codes. Add, never rename: scripts and docs rely on them. */
export const ERROR_CODES = {
  NOT_FOUND: 'The add-on does not serve this path',
  BAD_REQUEST: 'The request cannot be read (bad encoding, oversized segment)',
  METHOD_NOT_ALLOWED: 'Only GET, HEAD and OPTIONS are served',
  INVALID_MANIFEST: 'The manifest breaks the protocol; the add-on refuses to start',
  INVALID_RESPONSE: 'A handler answered something the protocol or the client rejects',
  HANDLER_FAILED: 'A handler threw or rejected',
  INVALID_CONFIG: 'User configuration does not match the declared fields',
  INVALID_SETTINGS: 'The operator configuration file or flags are invalid',
  SOURCE_UNREADABLE: 'A source file or URL cannot be read',
  SOURCE_INVALID: 'A source was read but holds nothing usable',
  SOURCE_TOO_LARGE: 'A source exceeds the configured size limit',
  SOURCE_TIMEOUT: 'A remote source did not answer in time',
  SOURCE_FORBIDDEN: 'A source URL points at an address that is not allowed',
  IMPORT_FAILED: 'An import failed; the previous data is still served',
  STORE_UNAVAILABLE: 'The database cannot be opened or is corrupt',
  RATE_LIMITED: 'Too many requests from one address',
  CROSS_SITE_REQUEST: 'A form was posted to this server from a page of another site',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** True when `error` is a MarqueeError, optionally with the given code. */
export function isMarqueeError(error: unknown, code?: ErrorCode): error is MarqueeError {
  return error instanceof MarqueeError && (code === undefined || error.code === code);
}

/** A problem found in user data (a source file, a manifest, a response): collected, not thrown. */
export interface Issue {
  /** JSON path (`$.catalogs[0].extra[1]`) or a file location (`guide.xml:120`). */
  readonly path: string;
  readonly message: string;
  /** What the real client does about it, when that is the consequence. */
  readonly effect?: string;
}
