/**
 * Bytes with Web APIs only (TextEncoder, btoa/atob), for what every runtime runs. Node passes its
 * own `Bytes` (Buffers: its adapter, cache and tests read answers as such); Workers, Bun and Deno
 * take `WEB_BYTES`.
 */

/** How answer bodies are made: UTF-8 of a string, joined parts, a copy of its own. */
export interface Bytes {
  utf8(text: string): Uint8Array;
  concat(parts: readonly Uint8Array[]): Uint8Array;
  copy(bytes: Uint8Array): Uint8Array;
}

const encoder = new TextEncoder();

/** @example WEB_BYTES.utf8('é') // Uint8Array [195, 169] */
export const WEB_BYTES: Bytes = {
  utf8: (text) => encoder.encode(text),
  concat(parts) {
    let size = 0;
    for (const part of parts) size += part.byteLength;
    const out = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  },
  copy: (bytes) => bytes.slice(),
};

/**
 * The UTF-8 length of a string without encoding it (a Content-Length); a lone surrogate counts
 * as the 3 bytes of U+FFFD, as TextEncoder and Node write it.
 * @example utf8Length('é') // 2
 */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        length += 4;
        i++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}

/** Standard base64 of a few bytes (a nonce, a key). @example base64(new Uint8Array([1, 2])) // 'AQI=' */
export function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** base64url without padding, as Node's `toString('base64url')` writes it. */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Bytes of base64 or base64url text, with or without padding; undefined when it is not base64.
 * @example fromBase64('AQI') // Uint8Array [1, 2]
 */
export function fromBase64(text: string): Uint8Array | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(standard) || standard.length % 4 === 1) return undefined;
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
