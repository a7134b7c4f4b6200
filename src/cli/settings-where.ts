/**
 * Where a settings problem is: the full key path of each schema issue, and the line of a key
 * path in the file's text (YAML by its parsed positions, JSON by a search).
 */
import { createRequire } from 'node:module';
import type * as v from 'valibot';
import type { Document, LineCounter } from 'yaml';

/**
 * The YAML parser, loaded the first time a YAML file is read: about 50 ms and 1 MB of heap that
 * a JSON file, or no file, does not need (every command reads its settings at start).
 */
let yamlModule: typeof import('yaml') | undefined;
export function yamlParser(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/** The 1-based line of the key at `path` in the settings text, when it can be found. */
export type LineOf = (path: readonly (string | number)[]) => number | undefined;

export function yamlLine(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  const { isMap, isScalar } = yamlParser();
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  if (!isMap(parent)) return undefined;
  const last = path.at(-1);
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
  const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

/** JSON has no positions once parsed: the first line that names the key is close enough for a person. */
export function jsonLine(text: string, path: readonly (string | number)[]): number | undefined {
  const last = path.at(-1);
  if (typeof last !== 'string') return undefined;
  const at = text.indexOf(`${JSON.stringify(last)}`);
  return at === -1 ? undefined : text.slice(0, at).split('\n').length;
}

export type SettingsIssue = v.BaseIssue<unknown>;

/** Issues with their full key paths; a source given as an object reports what the object option missed. */
export function flatten(
  issues: readonly SettingsIssue[],
  base: readonly (string | number)[],
): { issue: SettingsIssue; path: (string | number)[] }[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...(issue.path ?? []).map((p) => p.key as string | number)];
    const input = issue.input;
    const deeper = (issue.issues ?? []).filter((sub) => (sub.path?.length ?? 0) > 0);
    if (issue.type === 'union' && typeof input === 'object' && input !== null && deeper.length > 0) {
      return flatten(deeper, path);
    }
    return [{ issue, path }];
  });
}
