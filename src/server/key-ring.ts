import { base64, fromBase64 } from '../addon/bytes.js';

/**
 * The key ring of encrypted config tokens, with Web APIs only: the same key file serves Node's
 * codec (config-token.ts) and Web Crypto's (web-token.ts), so a token made by one opens in the
 * other. The key id in a token lets operators rotate keys: new tokens use the current key, old
 * install links keep working as long as their key stays in the ring.
 */
export interface KeyRing {
  /** Key id used for new tokens. */
  readonly current: string;
  /** Key id → 32-byte key. */
  readonly keys: Readonly<Record<string, Uint8Array>>;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

const newKey = () => crypto.getRandomValues(new Uint8Array(32));

/** A new random key ring with one key. */
export function generateKeyRing(keyId = `k${Date.now().toString(36)}`): KeyRing {
  return { current: keyId, keys: { [keyId]: newKey() } };
}

/** Add a new current key, keeping the old ones for existing install links. */
export function rotateKeyRing(ring: KeyRing, keyId = `k${Date.now().toString(36)}`): KeyRing {
  return { current: keyId, keys: { ...ring.keys, [keyId]: newKey() } };
}

/** JSON form for a key file: `{ current, keys: { id: base64 } }`. */
export function serializeKeyRing(ring: KeyRing): string {
  const keys = Object.fromEntries(Object.entries(ring.keys).map(([id, key]) => [id, base64(key)]));
  return `${JSON.stringify({ current: ring.current, keys }, null, 2)}\n`;
}

/**
 * Read a key file (or the secret holding its text, on a Worker); throws with what is wrong
 * (never with key material in the message).
 * @example parseKeyRing(env.MARQUEE_KEYS)
 */
export function parseKeyRing(text: string): KeyRing {
  const data = JSON.parse(text) as { current?: unknown; keys?: unknown };
  if (typeof data.current !== 'string' || typeof data.keys !== 'object' || data.keys === null) {
    throw new Error('a key ring needs "current" and "keys"');
  }
  const keys: Record<string, Uint8Array> = {};
  for (const [id, value] of Object.entries(data.keys as Record<string, unknown>)) {
    if (!KEY_ID.test(id)) throw new Error(`key id "${id.slice(0, 40)}" must be 1-32 letters, digits, _ or -`);
    const key = typeof value === 'string' ? fromBase64(value.trim()) : undefined;
    if (key?.byteLength !== 32) throw new Error(`key "${id}" must be 32 bytes in base64`);
    keys[id] = key;
  }
  if (!keys[data.current]) throw new Error(`the current key "${data.current.slice(0, 40)}" is not in the ring`);
  return { current: data.current, keys };
}
