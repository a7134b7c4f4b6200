/**
 * Relay links name a stored stream by a signed token, never by its upstream URL: the channel id,
 * a keyed digest of the stream's URL (so the token tells nothing of the URL, and cannot be
 * brute-forced offline into one), and in hosted mode the source set, signed with HMAC-SHA256
 * under a key derived from the key ring's. The key id is in the token: tokens made with an older
 * key still open while it stays in the ring. A token with any character changed is refused before
 * anything is looked up, let alone fetched: the signature is compared as the text it is written
 * as, so two spellings of the same bytes are not both accepted.
 *
 * Form: `{keyId}.{base64url(JSON payload)}.{base64url(HMAC)[0..22]}`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '../server/index.js';

/** What a token names. */
export interface RelayTokenPayload {
  /** The channel's public id. */
  readonly channel: string;
  /** The keyed digest of the stream's URL (`streamDigest`). */
  readonly stream: string;
  /** Hosted mode: the source set's key. */
  readonly set?: string;
}

export interface RelayTokens {
  /** A token for a stream of a channel, made with the ring's current key. */
  sign(channel: string, url: string, set?: string): string;
  /** What a token names, and the digest function of the key it was made with; undefined when it is not valid. */
  open(token: string): { readonly payload: RelayTokenPayload; readonly digest: (url: string) => string } | undefined;
}

const PURPOSE = 'marquee relay token v1';
const SIGNATURE_CHARS = 22;
/** Tokens longer than this are not read (a channel id is at most a few hundred characters). */
const MAX_TOKEN = 1_500;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Tokens over the key ring `ring` (a function, so a reloaded ring is used at once).
 * @example const tokens = relayTokens(() => ring); tokens.open(tokens.sign('mq-tv:bbc', 'http://x/1.ts'))?.payload.channel // 'mq-tv:bbc'
 */
export function relayTokens(ring: () => KeyRing): RelayTokens {
  const derived = new WeakMap<Uint8Array, Buffer>();
  const keyOf = (key: Uint8Array) => {
    let k = derived.get(key);
    if (k === undefined) {
      k = createHmac('sha256', key).update(PURPOSE).digest();
      derived.set(key, k);
    }
    return k;
  };
  const digestWith = (key: Buffer) => (url: string) =>
    createHmac('sha256', key).update(`url\u0000${url}`).digest('base64url').slice(0, 16);
  const signature = (key: Buffer, text: string) =>
    createHmac('sha256', key).update(`token\u0000${text}`).digest('base64url').slice(0, SIGNATURE_CHARS);

  return {
    sign(channel, url, set) {
      const current = ring();
      const key = keyOf(current.keys[current.current]!);
      const payload = { c: channel, u: digestWith(key)(url), ...(set !== undefined ? { s: set } : {}) };
      const text = `${current.current}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      return `${text}.${signature(key, text)}`;
    },
    open(token) {
      if (token.length > MAX_TOKEN) return undefined;
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      const [keyId, body, given] = parts as [string, string, string];
      if (!KEY_ID.test(keyId) || given.length !== SIGNATURE_CHARS) return undefined;
      const keys = ring().keys;
      const raw = Object.hasOwn(keys, keyId) ? keys[keyId] : undefined;
      if (raw === undefined) return undefined;
      const key = keyOf(raw);
      const expected = Buffer.from(signature(key, `${keyId}.${body}`));
      if (!timingSafeEqual(expected, Buffer.from(given))) return undefined;
      let data: unknown;
      try {
        data = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const { c, u, s } = (data ?? {}) as { c?: unknown; u?: unknown; s?: unknown };
      if (typeof c !== 'string' || typeof u !== 'string' || (s !== undefined && typeof s !== 'string'))
        return undefined;
      return {
        payload: { channel: c, stream: u, ...(typeof s === 'string' ? { set: s } : {}) },
        digest: digestWith(key),
      };
    },
  };
}
