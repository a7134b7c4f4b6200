import { describe, expect, it } from 'vitest';
import { createTokenCodec, generateKeyRing, parseKeyRing, rotateKeyRing, serializeKeyRing } from './config-token.js';

describe('encrypted config tokens', () => {
  const ring = generateKeyRing('a');
  const codec = createTokenCodec(ring, 'org.test');

  it('round-trips values and never shows them in the token', () => {
    const token = codec.encode({ password: 'hunter2', n: 5 });
    expect(token).toMatch(/^v1\.a\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('hunter2');
    expect(encodeURIComponent(token)).toBe(token);
    expect(codec.decode(token)).toEqual({ password: 'hunter2', n: 5 });
  });

  it('uses a fresh nonce each time', () => {
    expect(codec.encode({ a: 1 })).not.toBe(codec.encode({ a: 1 }));
  });

  it('refuses tampered tokens, unknown keys, other add-ons and garbage', () => {
    const token = codec.encode({ a: 1 });
    const body = token.split('.')[2]!;
    const flipped = `v1.a.${body.slice(0, 10)}${body[10] === 'A' ? 'B' : 'A'}${body.slice(11)}`;
    expect(codec.decode(flipped)).toBeUndefined();
    expect(codec.decode(token.replace('v1.a.', 'v1.b.'))).toBeUndefined();
    expect(createTokenCodec(ring, 'org.other').decode(token)).toBeUndefined();
    expect(createTokenCodec(generateKeyRing('a'), 'org.test').decode(token)).toBeUndefined();
    for (const junk of [
      '',
      '{}',
      'v1',
      'v1.a.',
      'v1.a.x.y',
      'v2.a.abc',
      'v1.constructor.AAAA',
      'v1.__proto__.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      expect(codec.decode(junk)).toBeUndefined();
    }
  });

  it('keeps old install links working after a key rotation', () => {
    const old = codec.encode({ a: 1 });
    const rotated = rotateKeyRing(ring, 'b');
    const next = createTokenCodec(rotated, 'org.test');
    expect(next.decode(old)).toEqual({ a: 1 });
    expect(next.encode({ a: 2 }).startsWith('v1.b.')).toBe(true);
  });

  it('stores and reads key rings, refusing bad ones without printing keys', () => {
    const text = serializeKeyRing(ring);
    const back = parseKeyRing(text);
    expect(createTokenCodec(back, 'org.test').decode(codec.encode({ x: 'y' }))).toEqual({ x: 'y' });
    expect(() => parseKeyRing('{"current":"z","keys":{"a":"AAAA"}}')).toThrow(/32 bytes/);
    expect(() => parseKeyRing(JSON.stringify({ current: 'z', keys: {} }))).toThrow(/not in the ring/);
  });
});
