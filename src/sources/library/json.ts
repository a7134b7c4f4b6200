import { MarqueeError } from '../../errors.js';
import type { SourceWarning } from '../records.js';
import { assembleLibrary, type ItemCandidate } from './assemble.js';
import { lineColumns, scanJson } from './json-scan.js';
import { checkTextSize, type LibraryReadOptions, type LibraryReadResult, resolveOptions } from './options.js';

/**
 * JSON library files: an array of items, `{ "items": [...] }` (room for `$schema`), or a single
 * item object (the folder layout, one file per item).
 */

const SHAPE = 'a library file holds an array of items, { "items": [...] } or one item object';

function invalid(source: string, message: string, details: Record<string, unknown> = {}): MarqueeError {
  return new MarqueeError('SOURCE_INVALID', `${source}: ${message}`, { details: { source, ...details } });
}

/**
 * The raw items of one JSON text, each with its line. Throws SOURCE_INVALID, naming line and
 * column, when the text is not JSON, and when it is JSON but not a library.
 *
 * @example jsonCandidates('[{"type":"movie","name":"Sintel"}]', 'lib.json').candidates[0].line // 1
 */
export function jsonCandidates(
  input: string,
  source: string,
): { candidates: ItemCandidate[]; warnings: SourceWarning[] } {
  // A BOM is kept as one character so offsets still count from the file's first character.
  const text = input.charCodeAt(0) === 0xfeff ? ` ${input.slice(1)}` : input;
  const scan = scanJson(text);
  if (!scan.ok) {
    const [at] = lineColumns(text, [scan.offset]);
    throw new MarqueeError('SOURCE_INVALID', `${source}:${at!.line}:${at!.column}: invalid JSON: ${scan.message}`, {
      details: { source, line: at!.line, column: at!.column },
    });
  }
  const data: unknown = JSON.parse(text);
  const warnings: SourceWarning[] = [];
  const lines = lineColumns(text, scan.itemStarts).map((p) => p.line);
  const listed = (items: unknown[]) =>
    items.map((value, index) => ({ value, source, line: lines[index] ?? 1, label: `item [${index}]` }));

  if (Array.isArray(data)) return { candidates: listed(data), warnings };
  if (scan.root !== 'object' || data === null || typeof data !== 'object') throw invalid(source, SHAPE);
  const root = data as Record<string, unknown>;
  if (!('items' in root)) {
    const line = lineColumns(text, [text.indexOf('{')])[0]!.line;
    return { candidates: [{ value: root, source, line, label: 'item' }], warnings };
  }
  if (!Array.isArray(root.items)) throw invalid(source, `"items" must be an array (${SHAPE})`);
  for (const key of Object.keys(root)) {
    if (key !== 'items' && key !== '$schema') {
      warnings.push({ source, line: 1, field: key, message: `unknown top-level field "${key}" ignored` });
    }
  }
  return { candidates: listed(root.items), warnings };
}

/**
 * Read a JSON library text. Bad items become warnings; invalid JSON and limits throw.
 *
 * @example parseLibraryJson(await readFile('library.json', 'utf8'), { source: 'library.json' }).items
 */
export function parseLibraryJson(text: string, options?: LibraryReadOptions): LibraryReadResult {
  const o = resolveOptions(options);
  checkTextSize(text, o);
  const { candidates, warnings } = jsonCandidates(text, o.source);
  const result = assembleLibrary(candidates, o);
  return { items: result.items, warnings: [...warnings, ...result.warnings] };
}
