import { describe, expect, it } from 'vitest';
import { StringInterner } from './intern.js';

describe('StringInterner', () => {
  it('returns an equal string, the same copy for every repeat, up to its bound', () => {
    const interner = new StringInterner(2);
    const chunk = `<programme channel="BBCOne.uk">${'x'.repeat(1000)}`;
    const a = interner.intern(chunk.slice(20, 29));
    expect(a).toBe('BBCOne.uk');
    expect(interner.intern(`BBCOne${'.uk'}`)).toBe(a);
    interner.intern('b');
    expect(interner.intern('c')).toBe('c');
    expect(interner.intern('ü-ñ')).toBe('ü-ñ');
  });
});
