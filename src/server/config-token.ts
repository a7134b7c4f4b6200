import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ConfigCodec } from '../addon/config.js';

/**
 * A config codec that keeps user configuration (passwords included) out of the URL in clear
 * text: the path segment is `v1.{keyId}.{base64url(nonce | ciphertext | tag)}`, AES-256-GCM with
 * a random 96-bit nonce and the key id and add-on id as associated data. The key id in the token
 * lets operators rotate keys: new tokens use the current key, old install links keep working as
 * long as their key stays in the ring. A tampered token or an unknown key decodes to undefined
 * (the add-on answers 404).
 */

export interface KeyRing {
  /** Key id used for new tokens. */
  readonly current: string;
  /** Key id → 32-byte key. */
  readonly keys: Readonly<Record<string, Uint8Array>>;
}

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** A new random key ring with one key. */
export function generateKeyRing(keyId = `k${Date.now().toString(36)}`): KeyRing {
  return { current: keyId, keys: { [keyId]: randomBytes(32) } };
}

/** Add a new current key, keeping the old ones for existing install links. */
export function rotateKeyRing(ring: KeyRing, keyId = `k${Date.now().toString(36)}`): KeyRing {
  return { current: keyId, keys: { ...ring.keys, [keyId]: randomBytes(32) } };
}

/** JSON form for a key file: `{ current, keys: { id: base64 } }`. */
export function serializeKeyRing(ring: KeyRing): string {
  const keys = Object.fromEntries(
    Object.entries(ring.keys).map(([id, key]) => [id, Buffer.from(key).toString('base64')]),
  );
  return `${JSON.stringify({ current: ring.current, keys }, null, 2)}\n`;
}

/** Read a key file; throws with what is wrong (never with key material in the message). */
export function parseKeyRing(text: string): KeyRing {
  const data = JSON.parse(text) as { current?: unknown; keys?: unknown };
  if (typeof data.current !== 'string' || typeof data.keys !== 'object' || data.keys === null) {
    throw new Error('a key ring needs "current" and "keys"');
  }
  const keys: Record<string, Uint8Array> = {};
  for (const [id, value] of Object.entries(data.keys as Record<string, unknown>)) {
    if (!KEY_ID.test(id)) throw new Error(`key id "${id.slice(0, 40)}" must be 1-32 letters, digits, _ or -`);
    const key = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
    if (key.byteLength !== 32) throw new Error(`key "${id}" must be 32 bytes in base64`);
    keys[id] = key;
  }
  if (!keys[data.current]) throw new Error(`the current key "${data.current.slice(0, 40)}" is not in the ring`);
  return { current: data.current, keys };
}

/**
 * @example const codec = createTokenCodec(generateKeyRing(), 'org.example.tv'); codec.decode(codec.encode({ pin: '1234' }))
 */
export function createTokenCodec(ring: KeyRing, addonId: string): ConfigCodec {
  const aad = (keyId: string) => Buffer.from(`${VERSION}.${keyId}.${addonId}`);
  return {
    encode(values) {
      const key = ring.keys[ring.current]!;
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(aad(ring.current));
      const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
      const token = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
      return `${VERSION}.${ring.current}.${token}`;
    },
    decode(segment) {
      const [version, keyId, token, ...rest] = segment.split('.');
      if (version !== VERSION || keyId === undefined || token === undefined || rest.length > 0) return undefined;
      const key = Object.hasOwn(ring.keys, keyId) ? ring.keys[keyId] : undefined;
      if (!key) return undefined;
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.byteLength < NONCE_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
        decipher.setAAD(aad(keyId));
        decipher.setAuthTag(bytes.subarray(bytes.byteLength - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(NONCE_BYTES, bytes.byteLength - TAG_BYTES)),
          decipher.final(),
        ]);
        const value: unknown = JSON.parse(plain.toString('utf8'));
        return value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
