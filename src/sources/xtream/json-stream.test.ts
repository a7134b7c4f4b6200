import { describe, expect, it } from 'vitest';
import { jsonElements } from './json-stream.js';

async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function all(text: string, size = 3): Promise<{ values: unknown[]; root?: string }> {
  const values: unknown[] = [];
  let root: string | undefined;
  for await (const v of jsonElements(chunks(text, size), 'get_x', (r) => (root = r))) values.push(v);
  return { values, ...(root !== undefined ? { root } : {}) };
}

describe('jsonElements', () => {
  it('yields each element of an array, whatever the chunk boundaries (strings, escapes, nesting, UTF-8)', async () => {
    const list = [{ a: 'x,]}"\\' }, [1, [2]], 'é😀', null, 3, { b: { c: [] } }];
    for (const size of [1, 2, 7, 1000]) expect((await all(JSON.stringify(list), size)).values).toEqual(list);
  });

  it('yields the values of an object keyed by id, nothing for null or []', async () => {
    expect(await all('{"7":{"id":7},"9":{"id":9}}')).toEqual({ values: [{ id: 7 }, { id: 9 }], root: 'object' });
    expect(await all(' null ')).toEqual({ values: [], root: 'null' });
    expect(await all('\uFEFF[ ]')).toEqual({ values: [], root: 'array' });
  });

  it('refuses an HTML page, anything not JSON, an empty answer and a list cut short', async () => {
    await expect(all('<!DOCTYPE html><html><body>Suspended</body></html>')).rejects.toThrow(
      'get_x: answered an HTML page, not JSON',
    );
    await expect(all('Access denied')).rejects.toThrow('get_x: the answer is not JSON');
    await expect(all('  ')).rejects.toThrow('get_x: the answer is empty, not JSON');
    await expect(all('[{"a":1},{"b":')).rejects.toThrow(/cut short/);
    await expect(all('[{"a":1},{oops}]')).rejects.toThrow(/get_x: invalid JSON/);
  });

  it('reads a byte order mark and multi-byte characters split between chunks', async () => {
    const text = `\uFEFF  ${JSON.stringify([{ name: 'Ünïcødé 📺' }, { name: '中文频道' }])}`;
    for (const size of [1, 2, 3, 5]) {
      expect((await all(text, size)).values).toEqual([{ name: 'Ünïcødé 📺' }, { name: '中文频道' }]);
    }
  });

  it('refuses one element larger than its cap before it is whole', async () => {
    const huge = `[{"name":"${'x'.repeat(5 * 1024 * 1024)}"}]`;
    await expect(all(huge, 64 * 1024)).rejects.toThrow(/get_x: one element is larger than 4194304 bytes/);
  });
});
