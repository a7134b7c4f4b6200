/**
 * Talking to a panel: every call goes through `openSource` (size caps, timeouts, retries, the
 * address rules), and every failure is rethrown naming the account's label and the action, never
 * a URL (which would carry the credentials). Small answers (the account, one movie's details) are
 * read whole under a small cap; lists are streamed element by element under the cap of a list
 * (limitsFor 'api-list'), applied while the bytes arrive: a panel answering hundreds of MB is cut
 * off at the cap, before its elements pile up in memory.
 */
import { MarqueeError } from '../../errors.js';
import type { SourceOptions } from '../input/index.js';
import { limitsFor, openSource, redactLocation } from '../input/index.js';
import { apiUrl, type XtreamAccount } from './account.js';
import { type JsonRoot, jsonElements, notJson } from './json-stream.js';

/** Time for one small answer: a panel that takes longer for one title is not waited for. */
const SMALL_TIMEOUT_MS = 30_000;

export interface XtreamClient {
  readonly account: XtreamAccount;
  /** One small JSON answer of `player_api.php` (no action: the account itself). */
  call(action: string | undefined, params?: Record<string, string>): Promise<unknown>;
  /** The elements of a list answer, streamed; `onRoot` hears whether the panel gave a list at all. */
  list(action: string, onRoot?: (root: JsonRoot) => void, params?: Record<string, string>): AsyncGenerator<unknown>;
  /** The options every call reads with (for the guide, read by the live-TV import itself). */
  readonly options: SourceOptions;
}

/**
 * A client for `account`, reading with `options` (limits, timeouts, signal).
 * @example const info = await createXtreamClient(account, { allowPrivateAddresses: true }).call(undefined)
 */
export function createXtreamClient(account: XtreamAccount, options: SourceOptions): XtreamClient {
  const what = (action: string | undefined) => `${account.label}: ${action ?? 'player_api.php'}`;
  const small: SourceOptions = {
    ...limitsFor('api-answer', options),
    timeoutMs: Math.min(options.timeoutMs ?? SMALL_TIMEOUT_MS, SMALL_TIMEOUT_MS),
  };
  const lists = limitsFor('api-list', options);
  return {
    account,
    options,
    async call(action, params = {}) {
      const url = apiUrl(account, 'player_api.php', { ...(action ? { action } : {}), ...params });
      const bytes: Buffer[] = [];
      try {
        const source = await openSource(url, small);
        if (source.notModified) throw new Error('answered "not modified" to a plain request');
        for await (const chunk of source) bytes.push(chunk);
      } catch (error) {
        throw rethrown(error, what(action), url);
      }
      const text = Buffer.concat(bytes).toString('utf8');
      try {
        return JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        throw text.trim() === ''
          ? new MarqueeError('SOURCE_INVALID', `${what(action)}: the answer is empty, not JSON`)
          : notJson(what(action), text);
      }
    },
    async *list(action, onRoot, params = {}) {
      const url = apiUrl(account, 'player_api.php', { action, ...params });
      let source: Awaited<ReturnType<typeof openSource>>;
      try {
        source = await openSource(url, lists);
        if (source.notModified) throw new Error('answered "not modified" to a plain request');
      } catch (error) {
        throw rethrown(error, what(action), url);
      }
      try {
        yield* jsonElements(source, what(action), onRoot);
      } catch (error) {
        throw rethrown(error, what(action), url);
      } finally {
        source.close();
      }
    },
  };
}

/**
 * `error` said as `label: action: why`: the input layer names the redacted URL; that is replaced
 * by the account's label, so no message ever holds the path or query an account URL is made of.
 */
export function rethrown(error: unknown, what: string, url: string): Error {
  if ((error as { name?: string } | null)?.name === 'AbortError') return error as Error;
  const code = error instanceof MarqueeError ? error.code : 'SOURCE_UNREADABLE';
  if (code === 'IMPORT_FAILED' || code === 'STORE_UNAVAILABLE') return error as Error;
  let message = error instanceof Error ? error.message : String(error);
  if (message.startsWith(`${what}:`)) return error as Error;
  const label = redactLocation(url);
  message = message
    .split(label)
    .join('')
    .replace(/^[:\s]+/, '');
  // Anything still naming the account's secrets (a redirect target, a server's echo) is cut.
  return new MarqueeError(code, `${what}: ${hideSecrets(message, url)}`, {
    cause: error,
    ...(error instanceof MarqueeError && error.details ? { details: { ...error.details, source: what } } : {}),
  });
}

function hideSecrets(message: string, url: string): string {
  const query = new URL(url).searchParams;
  let out = message;
  for (const secret of [query.get('password'), query.get('username')]) {
    if (secret && secret.length >= 2) out = out.split(secret).join('***');
  }
  return out;
}
