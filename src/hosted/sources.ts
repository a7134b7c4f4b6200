import { createHash, createHmac } from 'node:crypto';
import type { ConfigProblem } from '../addon/index.js';
import type { ConfigField } from '../protocol/index.js';

/**
 * A hosted user's sources, as their install link's encrypted token holds them: a playlist (and
 * maybe a guide), an Xtream account, or both. Nothing else on the server keeps them.
 */
export interface HostedSources {
  readonly playlist?: string;
  readonly epg?: string;
  readonly xtreamUrl?: string;
  readonly xtreamUser?: string;
  readonly xtreamPass?: string;
}

/** The fields of the hosted configure page and manifest (public names: the issue fixes them). */
export const HOSTED_FIELDS: readonly ConfigField[] = [
  { key: 'playlist', type: 'text', title: 'Playlist (M3U URL)' },
  { key: 'epg', type: 'text', title: 'Guide (XMLTV URL, optional)' },
  { key: 'xtreamUrl', type: 'text', title: 'Xtream server URL' },
  { key: 'xtreamUser', type: 'text', title: 'Xtream username' },
  { key: 'xtreamPass', type: 'password', title: 'Xtream password' },
];

/**
 * Three URLs and two names at their longest still make a token under the path's 8,192-character
 * config segment limit (JSON, then AES-GCM and base64url: about 4/3 of it).
 */
const MAX_URL = 1_500;
const MAX_NAME = 256;

function httpUrl(value: string, key: string, problems: ConfigProblem[]): string | undefined {
  if (value.length > MAX_URL) {
    problems.push({ key, message: `is longer than ${MAX_URL} characters` });
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push({ key, message: 'must be an http(s) URL' });
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push({ key, message: `must be an http(s) URL, not ${url.protocol.replace(':', '')}` });
    return undefined;
  }
  url.hash = '';
  return url.href;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const text = (values: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = values[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/**
 * Check and normalise what a user typed (or what a token holds): http(s) URLs only, a playlist
 * or a whole Xtream account, a guide only with channels to match it to. Messages never repeat a value.
 *
 * @example readHostedSources({ playlist: 'https://tv.example/list.m3u' }).sources?.playlist
 */
export function readHostedSources(values: Readonly<Record<string, unknown>>): {
  sources?: HostedSources;
  problems: ConfigProblem[];
} {
  const problems: ConfigProblem[] = [];
  const raw = {
    playlist: text(values, 'playlist'),
    epg: text(values, 'epg'),
    xtreamUrl: text(values, 'xtreamUrl'),
    xtreamUser: text(values, 'xtreamUser'),
    xtreamPass: text(values, 'xtreamPass'),
  };
  const playlist = raw.playlist !== undefined ? httpUrl(raw.playlist, 'playlist', problems) : undefined;
  const epg = raw.epg !== undefined ? httpUrl(raw.epg, 'epg', problems) : undefined;
  const xtreamUrl = raw.xtreamUrl !== undefined ? httpUrl(raw.xtreamUrl, 'xtreamUrl', problems) : undefined;
  for (const key of ['xtreamUser', 'xtreamPass'] as const) {
    if ((raw[key]?.length ?? 0) > MAX_NAME) problems.push({ key, message: `is longer than ${MAX_NAME} characters` });
  }
  let user = raw.xtreamUser;
  let pass = raw.xtreamPass;
  if (xtreamUrl !== undefined) {
    // The account URL may carry the credentials itself (http://USER:PASS@host, get.php?username=…).
    const url = new URL(xtreamUrl);
    user ??= url.searchParams.get('username') || decode(url.username) || undefined;
    pass ??= url.searchParams.get('password') || decode(url.password) || undefined;
    if (user === undefined) problems.push({ key: 'xtreamUser', message: 'is needed with an Xtream server URL' });
    if (pass === undefined) problems.push({ key: 'xtreamPass', message: 'is needed with an Xtream server URL' });
  } else if (raw.xtreamUser !== undefined || raw.xtreamPass !== undefined) {
    problems.push({ key: 'xtreamUrl', message: 'is needed with an Xtream username and password' });
  }
  if (raw.playlist === undefined && raw.xtreamUrl === undefined) {
    problems.push({
      key: 'playlist',
      message: 'or an Xtream account is needed: give a playlist URL, an account, or both',
    });
  }
  if (problems.length > 0) return { problems };
  return {
    problems,
    sources: {
      ...(playlist !== undefined ? { playlist } : {}),
      ...(epg !== undefined ? { epg } : {}),
      ...(xtreamUrl !== undefined ? { xtreamUrl, xtreamUser: user!, xtreamPass: pass! } : {}),
    },
  };
}

/**
 * The Xtream account `values` name (the configure form's fields or a token's): its normalised
 * server URL and its user, written into the URL or beside it; undefined without a server URL. A
 * stored password may only follow a form to the same account (configure.ts).
 * @example xtreamAccountOf({ xtreamUrl: 'http://tv.example:8080/', xtreamUser: 'me' }) // 'http://tv.example:8080/\nme'
 */
export function xtreamAccountOf(values: Readonly<Record<string, unknown>>): string | undefined {
  const raw = text(values, 'xtreamUrl');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  url.hash = '';
  const user = text(values, 'xtreamUser') ?? (url.searchParams.get('username') || decode(url.username) || '');
  return `${url.href}\n${user}`;
}

/**
 * The source set's key: a keyed hash (HMAC-SHA-256 under `secret`) of the normalised sources, so
 * two users with the same sources share one import and one store. It names files, log lines and
 * status lines; it reveals no URL, and without the secret nobody holding a key (a log, a status
 * listing) can test guesses of the URL or password against it. Without a secret (tests, tools)
 * it is a plain hash.
 *
 * @example sourceSetKey({ playlist: 'https://tv.example/list.m3u' }, secret).length // 32
 */
export function sourceSetKey(sources: HostedSources, secret?: Uint8Array): string {
  const canonical = JSON.stringify([
    sources.playlist ?? null,
    sources.epg ?? null,
    sources.xtreamUrl ?? null,
    sources.xtreamUser ?? null,
    sources.xtreamPass ?? null,
  ]);
  const hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  return hash.update(`marquee-hosted-v1\n${canonical}`).digest('hex').slice(0, 32);
}

/**
 * The set-key secret of a key ring: derived from its oldest key (the smallest id), so every
 * replica sharing the ring names a set alike, and `rotate-key` does not rename the sets.
 * @example setKeySecret(ring).byteLength // 32
 */
export function setKeySecret(ring: { readonly keys: Readonly<Record<string, Uint8Array>> }): Uint8Array {
  const oldest = Object.keys(ring.keys).sort()[0];
  if (oldest === undefined) throw new Error('the key ring holds no key');
  return createHmac('sha256', ring.keys[oldest]!).update('marquee hosted source set keys').digest();
}

/** The values a token holds for `sources` (the config codec encrypts them). */
export function sourcesToConfig(sources: HostedSources): Record<string, string> {
  return Object.fromEntries(Object.entries(sources).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}
