import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ResourceSchema } from './resource.js';
import { jsonPath, schemaIssues } from './schema-issues.js';
import { StreamSchema } from './stream.js';

describe('jsonPath', () => {
  test('identifiers, indexes and other keys', () => {
    expect(jsonPath('$', 'catalogs')).toBe('$.catalogs');
    expect(jsonPath('$.catalogs', 0)).toBe('$.catalogs[0]');
    expect(jsonPath('$.headers', 'User-Agent')).toBe('$.headers["User-Agent"]');
    expect(jsonPath('$', 'a"b')).toBe('$["a\\"b"]');
  });
});

describe('schemaIssues', () => {
  function issues(schema: v.GenericSchema, input: unknown, effect?: string) {
    return schemaIssues(v.safeParse(schema, input, { abortEarly: false }).issues ?? [], '$.x', effect);
  }

  test('valibot messages become instructions; schema authors’ messages stay as written', () => {
    expect(issues(v.object({ a: v.string() }), {})).toEqual([{ path: '$.x.a', message: 'is required: add it' }]);
    expect(issues(v.object({ a: v.string() }), { a: 5 })).toEqual([
      { path: '$.x.a', message: 'must be a string (got 5)' },
    ]);
    expect(issues(v.array(v.number()), 'no')).toEqual([{ path: '$.x', message: 'must be an array (got "no")' }]);
    expect(issues(v.pipe(v.number(), v.integer()), 1.5)).toEqual([
      { path: '$.x', message: 'must be an integer (got 1.5)' },
    ]);
    expect(issues(v.pipe(v.number(), v.minValue(1)), 0)).toEqual([
      { path: '$.x', message: 'must be at least 1 (got 0)' },
    ]);
    expect(issues(v.picklist(['a', 'b']), 'c')).toEqual([{ path: '$.x', message: 'must be "a" or "b" (got "c")' }]);
    const [long] = issues(v.picklist(['a', 'b']), 'x'.repeat(10_000));
    expect(long?.message.length).toBeLessThan(100);
    expect(issues(StreamSchema, { url: 'x' }, 'dropped')).toEqual([
      { path: '$.x.url', message: 'must be an absolute URL (the client drops the item otherwise)', effect: 'dropped' },
    ]);
  });

  test('a string-or-object union reports what the object misses, or one message for other input', () => {
    expect(issues(ResourceSchema, { types: ['movie'] })).toEqual([
      { path: '$.x.name', message: 'is required: add it' },
    ]);
    expect(issues(ResourceSchema, 5)).toEqual([
      { path: '$.x', message: 'must be a resource name (string) or an object { name, types, idPrefixes? }' },
    ]);
  });
});
