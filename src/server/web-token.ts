import { base64url, fromBase64, WEB_BYTES } from '../addon/bytes.js';
import type { AsyncConfigCodec } from '../addon/config.js';
import type { KeyRing } from './key-ring.js';

/** Web Crypto's key and AES-GCM parameters, named the same under Node's types and the Web's. */
type CryptoKeyOf = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
type GcmParams = Parameters<typeof crypto.subtle.encrypt>[0];

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypted config tokens with Web Crypto, for every runtime (Workers, Bun, Deno, Node): the same
 * tokens as Node's `createTokenCodec`, byte for byte in form (`v1.{keyId}.{base64url(nonce |
 * ciphertext | tag)}`, AES-256-GCM, the key id and add-on id as associated data), so with the
 * same key ring a token made by one opens in the other. Web Crypto answers in promises: so does
 * this codec, and an add-on given it answers `manifestFor` with a promise. A tampered token, an
 * unknown key or another add-on's token decodes to undefined (the add-on answers 404).
 *
 * @example const codec = createWebTokenCodec(parseKeyRing(env.MARQUEE_KEYS), 'org.example.films'); await codec.decode(await codec.encode({ pin: '1234' }))
 */
export function createWebTokenCodec(ring: KeyRing, addonId: string): AsyncConfigCodec {
  const imported = new Map<string, Promise<CryptoKeyOf>>();
  const keyOf = (keyId: string, key: Uint8Array) => {
    let cryptoKey = imported.get(keyId);
    if (cryptoKey === undefined) {
      cryptoKey = crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
        'encrypt',
        'decrypt',
      ]);
      imported.set(keyId, cryptoKey);
    }
    return cryptoKey;
  };
  const params = (keyId: string, nonce: Uint8Array): GcmParams => ({
    name: 'AES-GCM',
    iv: nonce as Uint8Array<ArrayBuffer>,
    additionalData: WEB_BYTES.utf8(`${VERSION}.${keyId}.${addonId}`) as Uint8Array<ArrayBuffer>,
    tagLength: TAG_BYTES * 8,
  });
  return {
    async encode(values) {
      const keyId = ring.current;
      const key = await keyOf(keyId, ring.keys[keyId]!);
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      const plain = WEB_BYTES.utf8(JSON.stringify(values)) as Uint8Array<ArrayBuffer>;
      // Web Crypto's AES-GCM output is the ciphertext with its tag at the end, as Node's codec writes it.
      const sealed = new Uint8Array(await crypto.subtle.encrypt(params(keyId, nonce), key, plain));
      return `${VERSION}.${keyId}.${base64url(WEB_BYTES.concat([nonce, sealed]))}`;
    },
    async decode(segment) {
      const [version, keyId, token, ...rest] = segment.split('.');
      if (version !== VERSION || keyId === undefined || token === undefined || rest.length > 0) return undefined;
      const raw = Object.hasOwn(ring.keys, keyId) ? ring.keys[keyId] : undefined;
      if (!raw) return undefined;
      const bytes = fromBase64(token);
      if (bytes === undefined || bytes.byteLength < NONCE_BYTES + TAG_BYTES) return undefined;
      try {
        const key = await keyOf(keyId, raw);
        const plain = await crypto.subtle.decrypt(
          params(keyId, bytes.subarray(0, NONCE_BYTES)),
          key,
          bytes.subarray(NONCE_BYTES) as Uint8Array<ArrayBuffer>,
        );
        const value: unknown = JSON.parse(new TextDecoder().decode(plain));
        return value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
