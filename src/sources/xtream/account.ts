/**
 * An Xtream Codes account: a panel's base URL and a username and password. Providers hand it out
 * in three shapes that all mean the same account: `http://USER:PASS@host:port`, the playlist link
 * `http://host:port/get.php?username=U&password=P&type=m3u_plus`, and the API link
 * `http://host:port/player_api.php?username=U&password=P`. The credentials are secrets: the
 * account's `label` (for reports and logs) shows the host and at most two characters of the
 * username; only the URLs handed to the user's own player carry them.
 */
import { createHash } from 'node:crypto';
import { MarqueeError } from '../../errors.js';

export interface XtreamAccount {
  /** `http(s)://host[:port][/path]`, without a trailing slash: where the panel's scripts live. */
  readonly base: string;
  readonly username: string;
  readonly password: string;
  /** `us…@host:port`: safe to show. */
  readonly label: string;
  /** The host (and port) alone, naming the account's streams (`tv.example:8080`). */
  readonly host: string;
  /**
   * The account's canonical API address (it holds the credentials): one account is one source
   * however it was written, so its last good copy follows it.
   */
  readonly location: string;
  /** 8 hex digits from the host and username: library ids of two accounts never collide, and survive a password change. */
  readonly id: string;
}

/** What the operator may give besides the URL (settings `xtream[].username`, `password`). */
export interface XtreamCredentials {
  readonly username?: string;
  readonly password?: string;
}

const SCRIPT = /\/(?:get|player_api|xmltv|panel_api)\.php$/i;

/**
 * Reads an account from any of its three URL shapes; `credentials` given separately win.
 * Throws INVALID_SETTINGS (without the secrets) when the URL is not http(s) or names no username
 * and password.
 * @example parseXtreamAccount('http://me:pw@tv.example:8080').base // 'http://tv.example:8080'
 * @example parseXtreamAccount('http://tv.example/get.php?username=me&password=pw&type=m3u').username // 'me'
 */
export function parseXtreamAccount(url: string, credentials: XtreamCredentials = {}): XtreamAccount {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new MarqueeError('INVALID_SETTINGS', 'xtream: an account URL must be an http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `xtream: an account URL must be http(s), not ${parsed.protocol.replace(':', '')} (${parsed.host})`,
    );
  }
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const username =
    credentials.username ?? (parsed.searchParams.get('username') || decode(parsed.username) || undefined);
  const password =
    credentials.password ?? (parsed.searchParams.get('password') || decode(parsed.password) || undefined);
  if (!username || !password) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `xtream: the account at ${parsed.host} needs a username and a password: http://USER:PASS@${parsed.host}, ` +
        `.../get.php?username=U&password=P, or username and password in the settings`,
    );
  }
  const path = parsed.pathname.replace(SCRIPT, '').replace(/\/+$/, '');
  const base = `${parsed.protocol}//${parsed.host}${path}`;
  const host = `${parsed.host}${path}`;
  return {
    base,
    username,
    password,
    host,
    label: `${shownUser(username)}@${host}`,
    location: `${base}/player_api.php?username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`,
    id: createHash('sha256').update(`${parsed.host.toLowerCase()}${path}\n${username}`).digest('hex').slice(0, 8),
  };
}

/** At most the first two characters of a username, and never all of a short one: `us…`. */
function shownUser(username: string): string {
  const shown = username.slice(0, Math.min(2, Math.max(0, username.length - 2)));
  return `${shown}…`;
}

/**
 * The URL of a panel script with the account's credentials and `params` (e.g. an API action).
 * @example apiUrl(account, 'player_api.php', { action: 'get_live_streams' })
 */
export function apiUrl(account: XtreamAccount, script: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ username: account.username, password: account.password, ...params });
  return `${account.base}/${script}?${query}`;
}

/**
 * A stream URL as Xtream panels serve them: `/live|movie|series/USER/PASS/ID.EXT`.
 * @example streamUrl(account, 'movie', '42', 'mkv') // 'http://tv.example:8080/movie/me/pw/42.mkv'
 */
export function streamUrl(account: XtreamAccount, kind: 'live' | 'movie' | 'series', id: string, ext: string): string {
  const seg = (s: string) => encodeURIComponent(s);
  return `${account.base}/${kind}/${seg(account.username)}/${seg(account.password)}/${seg(id)}.${ext}`;
}
