import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv } from './csv-parse.js';

const values = (text: string, delimiter?: ',' | ';' | '\t') =>
  parseCsv(text, delimiter).rows.map((r) => r.cells.map((c) => c.value));

describe('parseCsv', () => {
  it('reads quoted fields with delimiters, doubled quotes and line breaks', () => {
    const text = 'name,description\n"Sintel, the film","She said ""hi""\nand left",x\nplain,"",\n';
    expect(values(text)).toEqual([
      ['name', 'description'],
      ['Sintel, the film', 'She said "hi"\nand left', 'x'],
      ['plain', '', ''],
    ]);
  });

  it('handles CRLF, CR, a BOM, blank lines and a missing final line break', () => {
    expect(values('\uFEFFa,b\r\n1,"x\r\ny"\r\n\r\n2,3\r4,5')).toEqual([
      ['a', 'b'],
      ['1', 'x\ny'],
      ['2', '3'],
      ['4', '5'],
    ]);
  });

  it('records the line each row and cell starts on', () => {
    const table = parseCsv('a,b\n"multi\nline\ntext",c\nd,e\n');
    expect(table.rows.map((r) => r.line)).toEqual([1, 2, 5]);
    expect(table.rows[1]!.cells.map((c) => c.line)).toEqual([2, 4]);
  });

  it('detects ; and tab from the header, ignoring delimiters inside quotes', () => {
    expect(detectDelimiter('name;genres;"a,b,c"\n1,2,3')).toBe(';');
    expect(detectDelimiter('name\tgenres\n')).toBe('\t');
    expect(detectDelimiter('name\n')).toBe(',');
    expect(values('a;"b;c"\n1;2', undefined)).toEqual([
      ['a', 'b;c'],
      ['1', '2'],
    ]);
    expect(values('a;b\n', ',')).toEqual([['a;b']]);
  });

  it('skips a row with text after a closing quote and keeps reading', () => {
    const table = parseCsv('a,b\n"x"y,z\n1,2\n');
    expect(table.rows.map((r) => r.cells.map((c) => c.value))).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(table.problems).toEqual([{ line: 2, message: 'text after the closing quote of field 1; row skipped' }]);
  });

  it('reports a quote that never closes at the line it opens', () => {
    const table = parseCsv('a,b\n1,2\n3,"open\nmore\n');
    expect(table.rows).toHaveLength(2);
    expect(table.problems).toEqual([
      { line: 3, message: 'a quoted field is never closed; the rest of the file is lost' },
    ]);
  });
});
