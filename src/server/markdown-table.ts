/**
 * GitHub's tables for the Markdown renderer (markdown.ts): a header row, a delimiter row with as
 * many cells (`---`, `:-:`, `--:` for the alignment), then rows until a blank line or another
 * block. Cells hold inline Markdown; `\|` is a pipe inside a cell.
 */
import { inlineHtml } from './markdown-html.js';
import { parseInline } from './markdown-inline.js';

type Align = 'left' | 'center' | 'right' | undefined;

export interface TableBlock {
  readonly kind: 'table';
  readonly align: readonly Align[];
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A table starts at line `i`: a line with a `|`, then a delimiter row with as many cells. */
export function tableAt(lines: readonly string[], i: number): boolean {
  const head = lines[i]!;
  const delimiter = lines[i + 1];
  if (!head.includes('|') || delimiter === undefined || !DELIMITER_ROW.test(delimiter)) return false;
  return splitRow(head).length === splitRow(delimiter).length;
}

/**
 * The table at line `start` (where `tableAt` is true), up to a blank line or a line where
 * `interrupts` says another block starts; `next` is the line after it.
 */
export function readTable(
  lines: readonly string[],
  start: number,
  interrupts: (lines: readonly string[], i: number) => boolean,
): { block: TableBlock; next: number } {
  const head = splitRow(lines[start]!);
  const align = splitRow(lines[start + 1]!).map((d): Align => {
    const left = d.startsWith(':');
    const right = d.endsWith(':');
    return left && right ? 'center' : right ? 'right' : left ? 'left' : undefined;
  });
  const rows: string[][] = [];
  let i = start + 2;
  for (; i < lines.length && lines[i]!.trim() !== '' && !interrupts(lines, i); i++) rows.push(splitRow(lines[i]!));
  return { block: { kind: 'table', align, head, rows }, next: i };
}

/** The table as HTML: as many cells in each row as in the header (short rows filled, long ones cut). */
export function renderTable(table: TableBlock): string {
  const cell = (tag: 'th' | 'td', text: string, i: number) => {
    const align = table.align[i];
    return `<${tag}${align ? ` style="text-align: ${align}"` : ''}>${inlineHtml(parseInline(text))}</${tag}>`;
  };
  const row = (tag: 'th' | 'td', cells: readonly string[]) =>
    `<tr>${table.head.map((_, i) => cell(tag, cells[i] ?? '', i)).join('')}</tr>`;
  const body = table.rows.length > 0 ? `\n<tbody>\n${table.rows.map((r) => row('td', r)).join('\n')}\n</tbody>` : '';
  return `<table>\n<thead>\n${row('th', table.head)}\n</thead>${body}\n</table>`;
}

/** A row's cells: split at `|` not escaped, outer pipes dropped, `\|` read as `|`. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      current += '|';
      i++;
    } else if (row[i] === '|') {
      cells.push(current.trim());
      current = '';
    } else current += row[i];
  }
  cells.push(current.trim());
  return cells;
}
