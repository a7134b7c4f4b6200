import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ConfigCodec } from '../addon/config.js';
import type { KeyRing } from './key-ring.js';

export { generateKeyRing, type KeyRing, parseKeyRing, rotateKeyRing, serializeKeyRing } from './key-ring.js';

/**
 * A config codec that keeps user configuration (passwords included) out of the URL in clear
 * text: the path segment is `v1.{keyId}.{base64url(nonce | ciphertext | tag)}`, AES-256-GCM with
 * a random 96-bit nonce and the key id and add-on id as associated data. The key id in the token
 * lets operators rotate keys: new tokens use the current key, old install links keep working as
 * long as their key stays in the ring (key-ring.ts). A tampered token or an unknown key decodes
 * to undefined (the add-on answers 404). Synchronous, with node:crypto; web-token.ts makes and
 * opens the same tokens with Web Crypto on every runtime.
 */

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

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
