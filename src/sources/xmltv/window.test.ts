import { describe, expect, it } from 'vitest';
import { DocumentWindow } from './window.js';

function windowOf(...texts: string[]) {
  const window = new DocumentWindow();
  for (const text of texts) window.push(text);
  return window;
}

describe('DocumentWindow', () => {
  it('slices across pieces', () => {
    const window = windowOf('<tv>\n<pro', 'gramme', ' start="1">');
    expect(window.slice(6, 15)).toBe('programme');
    expect(window.slice(0, 3)).toBe('<tv');
    expect(window.slice(16, 21)).toBe('start');
  });

  it('counts lines forward and backward', () => {
    const window = windowOf('a\nb\n', 'c\n\nd', '\ne');
    expect(window.lineAt(0)).toBe(1);
    expect(window.lineAt(4)).toBe(3);
    expect(window.lineAt(8)).toBe(5);
    expect(window.lineAt(2)).toBe(2);
    expect(window.lineAt(10)).toBe(6);
    expect(window.lastLine()).toBe(6);
  });

  it('keeps slicing and counting right after releasing what lies behind', () => {
    const window = windowOf('one\n', 'two\n', 'three\n');
    expect(window.lineAt(8)).toBe(3);
    window.release(8);
    expect(window.slice(8, 13)).toBe('three');
    window.push('four');
    expect(window.lineAt(15)).toBe(4);
    expect(window.slice(12, 18)).toBe('e\nfour'.slice(0, 6));
  });
});
