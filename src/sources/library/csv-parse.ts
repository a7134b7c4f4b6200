/**
 * RFC 4180 CSV, as spreadsheets write it: quoted fields with doubled quotes, commas and line
 * breaks inside quotes, CRLF or LF (or CR) line ends, a UTF-8 BOM, and `;` (European Excel) or
 * tab instead of `,`. Every cell keeps the line it starts on so errors can point at it.
 */

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvCell {
  readonly value: string;
  /** 1-based line the cell starts on (quoted cells may span lines). */
  readonly line: number;
}

export interface CsvRow {
  /** 1-based line the row starts on. */
  readonly line: number;
  readonly cells: readonly CsvCell[];
}

export interface CsvProblem {
  readonly line: number;
  readonly message: string;
}

export interface CsvTable {
  readonly delimiter: CsvDelimiter;
  /** Rows in file order, the header first; blank lines are not rows. */
  readonly rows: readonly CsvRow[];
  /** Rows that cannot be read; they are left out of `rows`. */
  readonly problems: readonly CsvProblem[];
}

/**
 * The delimiter of the header line: the most frequent of `,`, `;` and tab outside quotes.
 *
 * @example detectDelimiter('name;genres\nAmélie;Comedy') // ';'
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  const best = (Object.keys(counts) as CsvDelimiter[]).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return counts[best] > 0 ? best : ',';
}

/**
 * Split CSV text into rows of cells.
 *
 * @example parseCsv('a,"b ""c"""\r\n1,2\r\n').rows[0].cells[1].value // 'b "c"'
 */
export function parseCsv(input: string, delimiter?: CsvDelimiter): CsvTable {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delim = delimiter ?? detectDelimiter(text);
  const rows: CsvRow[] = [];
  const problems: CsvProblem[] = [];
  let i = 0;
  let line = 1;

  /** Consume a line end at `i`, if any; true when one was consumed. */
  const lineEnd = (): boolean => {
    const ch = text[i];
    if (ch === '\r') i += text[i + 1] === '\n' ? 2 : 1;
    else if (ch === '\n') i++;
    else return false;
    line++;
    return true;
  };

  while (i < text.length) {
    const rowLine = line;
    if (lineEnd()) continue; // a blank line
    const cells: CsvCell[] = [];
    let broken: string | undefined;
    for (;;) {
      const cellLine = line;
      let value = '';
      if (text[i] === '"') {
        let j = i + 1;
        for (;;) {
          const close = text.indexOf('"', j);
          const chunk = text.slice(j, close === -1 ? text.length : close);
          value += chunk;
          line += countLineBreaks(chunk);
          if (close === -1) {
            problems.push({ line: cellLine, message: 'a quoted field is never closed; the rest of the file is lost' });
            return { delimiter: delim, rows, problems };
          }
          if (text[close + 1] === '"') {
            value += '"';
            j = close + 2;
          } else {
            i = close + 1;
            break;
          }
        }
        if (i < text.length && text[i] !== delim && text[i] !== '\r' && text[i] !== '\n') {
          broken ??= `text after the closing quote of field ${cells.length + 1}`;
          while (i < text.length && text[i] !== delim && text[i] !== '\r' && text[i] !== '\n') i++;
        }
      } else {
        const start = i;
        while (i < text.length && text[i] !== delim && text[i] !== '\r' && text[i] !== '\n') i++;
        value = text.slice(start, i);
      }
      // Spreadsheets differ in the line break they put inside a cell; records get one.
      cells.push({ value: value.includes('\r') ? value.replace(/\r\n?/g, '\n') : value, line: cellLine });
      if (text[i] === delim) {
        i++;
        continue;
      }
      lineEnd();
      break;
    }
    if (broken === undefined) rows.push({ line: rowLine, cells });
    else problems.push({ line: rowLine, message: `${broken}; row skipped` });
  }
  return { delimiter: delim, rows, problems };
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let k = 0; k < text.length; k++) {
    const ch = text.charCodeAt(k);
    if (ch === 0x0a) n++;
    else if (ch === 0x0d && text.charCodeAt(k + 1) !== 0x0a) n++;
  }
  return n;
}
