import { describe, expect, it } from 'vitest';
import { generateKeyRing, type KeyRing, rotateKeyRing } from '../server/index.js';
import { relayTokens } from './token.js';

const URL_WITH_SECRETS = 'http://user:secret@tv.example:8080/live/me/pa55word/12.ts?token=abc';

describe('relay tokens', () => {
  it('name the channel and a digest of the stream, never its URL', () => {
    const ring = generateKeyRing('k1');
    const tokens = relayTokens(() => ring);
    const token = tokens.sign('mq-tv:bbc-one', URL_WITH_SECRETS);
    const decoded = Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8');
    for (const secret of ['tv.example', 'secret', 'pa55word', 'abc', 'live', 'user'])
      expect(`${token} ${decoded}`).not.toContain(secret);
    const opened = tokens.open(token)!;
    expect(opened.payload).toEqual({ channel: 'mq-tv:bbc-one', stream: opened.digest(URL_WITH_SECRETS) });
    expect(opened.digest('http://tv.example/other.ts')).not.toBe(opened.payload.stream);
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
  });

  it('refuses a token with any one character changed', () => {
    const ring = generateKeyRing('k1');
    const tokens = relayTokens(() => ring);
    const token = tokens.sign('mq-tv:arte', 'http://tv.example/arte.m3u8', 'set123');
    expect(tokens.open(token)?.payload.set).toBe('set123');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < token.length; i++) {
      for (const c of [alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!, 'A', 'w']) {
        if (c === token[i]) continue;
        const changed = token.slice(0, i) + c + token.slice(i + 1);
        expect(tokens.open(changed), `character ${i} as ${c}`).toBeUndefined();
      }
    }
    expect(tokens.open(`${token}x`)).toBeUndefined();
    expect(tokens.open(token.slice(0, -1))).toBeUndefined();
    expect(tokens.open('')).toBeUndefined();
    expect(tokens.open('a.b.c')).toBeUndefined();
  });

  it('opens tokens of older keys while they stay in the ring, not after', () => {
    let ring: KeyRing = generateKeyRing('old');
    const tokens = relayTokens(() => ring);
    const old = tokens.sign('mq-tv:a', 'http://x/a.ts');
    ring = rotateKeyRing(ring, 'new');
    const fresh = tokens.sign('mq-tv:a', 'http://x/a.ts');
    expect(fresh.startsWith('new.')).toBe(true);
    expect(tokens.open(old)?.payload.channel).toBe('mq-tv:a');
    expect(tokens.open(fresh)?.payload.channel).toBe('mq-tv:a');
    ring = { current: 'new', keys: { new: ring.keys.new! } };
    expect(tokens.open(old)).toBeUndefined();
    expect(tokens.open(fresh)).toBeDefined();
  });

  it('refuses a token signed by another ring', () => {
    const one = generateKeyRing('k1');
    const other = generateKeyRing('k1');
    const a = relayTokens(() => one);
    const b = relayTokens(() => other);
    expect(b.open(a.sign('mq-tv:a', 'http://x/a.ts'))).toBeUndefined();
  });
});
