import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { STATUS_BY_CODE } from '../src/server/errors.js';

describe('error code table', () => {
  it('docs/errors.md lists every code with the status the server maps it to', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const expected = Object.keys(ERROR_CODES).map((code) => [code, STATUS_BY_CODE[code as keyof typeof ERROR_CODES]]);
    expect(rows).toEqual(expected);
  });
});
