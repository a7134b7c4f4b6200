/**
 * Web Crypto's config tokens (web-token.ts) against Node's (config-token.ts): the same key ring
 * opens either's tokens, both ways, and both refuse the same tampered or foreign ones.
 */
import { describe, expect, it } from 'vitest';
import { createTokenCodec } from './config-token.js';
import { generateKeyRing, parseKeyRing, rotateKeyRing, serializeKeyRing } from './key-ring.js';
import { createWebTokenCodec } from './web-token.js';

describe('Web Crypto config tokens', () => {
  const ring = generateKeyRing('a');
  const web = createWebTokenCodec(ring, 'org.test');
  const node = createTokenCodec(ring, 'org.test');
  const values = { password: 'hunter2 é ✓', n: 5, on: true };

  it('round-trips values and never shows them in the token', async () => {
    const token = await web.encode(values);
    expect(token).toMatch(/^v1\.a\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('hunter2');
    expect(await web.decode(token)).toEqual(values);
    expect(await web.encode({ a: 1 })).not.toBe(await web.encode({ a: 1 }));
  });

  it('opens tokens made by Node, and Node opens its tokens, with the same key ring from its key file', async () => {
    const fromFile = parseKeyRing(serializeKeyRing(ring));
    expect(await createWebTokenCodec(fromFile, 'org.test').decode(node.encode(values))).toEqual(values);
    expect(createTokenCodec(fromFile, 'org.test').decode(await web.encode(values))).toEqual(values);
    // Same length for the same values: the same layout (nonce, ciphertext, tag).
    expect((await web.encode(values)).length).toBe(node.encode(values).length);
  });

  it('refuses tampered tokens, unknown keys, other add-ons and garbage, as Node does', async () => {
    const token = await web.encode({ a: 1 });
    const body = token.split('.')[2]!;
    const flipped = `v1.a.${body.slice(0, 10)}${body[10] === 'A' ? 'B' : 'A'}${body.slice(11)}`;
    const refused = [
      flipped,
      token.replace('v1.a.', 'v1.b.'),
      '',
      '{}',
      'v1',
      'v1.a.',
      'v1.a.x.y',
      'v2.a.abc',
      'v1.a.not base64!',
      'v1.constructor.AAAA',
      'v1.__proto__.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ];
    for (const junk of refused) {
      expect(await web.decode(junk), junk).toBeUndefined();
      expect(node.decode(junk), junk).toBeUndefined();
    }
    expect(await createWebTokenCodec(ring, 'org.other').decode(token)).toBeUndefined();
    expect(await createWebTokenCodec(generateKeyRing('a'), 'org.test').decode(token)).toBeUndefined();
  });

  it('keeps old install links working after a key rotation', async () => {
    const old = node.encode({ a: 1 });
    const next = createWebTokenCodec(rotateKeyRing(ring, 'b'), 'org.test');
    expect(await next.decode(old)).toEqual({ a: 1 });
    expect((await next.encode({ a: 2 })).startsWith('v1.b.')).toBe(true);
  });
});
