import type * as v from 'valibot';
import type { Issue } from '../errors.js';

/**
 * Turns valibot issues into Marquee `Issue`s: a JSON path (`$.catalogs[0].extra[1].name`) and a
 * message that says what to write instead of valibot's "Invalid type: Expected … but received …".
 */

type PathKey = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Append one key to a JSON path: `.name` for identifiers, `[3]` for indexes, `["a b"]` otherwise.
 *
 * @example jsonPath('$.catalogs', 0) // '$.catalogs[0]'
 */
export function jsonPath(base: string, key: PathKey): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

type AnyIssue = v.BaseIssue<unknown>;

function pathOf(base: string, issue: AnyIssue): string {
  let out = base;
  for (const item of issue.path ?? []) {
    const key = item.key;
    out = jsonPath(out, typeof key === 'number' ? key : String(key));
  }
  return out;
}

/** valibot's default messages start with "Invalid"; schema authors' own messages are kept as written. */
function describe(raw: AnyIssue): string {
  if (!raw.message.startsWith('Invalid ')) return raw.message;
  // valibot puts the whole input in `received`; a message must not grow with the input.
  const issue = raw.received.length > 60 ? { ...raw, received: `${raw.received.slice(0, 59)}…` } : raw;
  if (issue.kind === 'schema') {
    if (issue.received === 'undefined' && issue.expected?.startsWith('"')) return 'is required: add it';
    if (issue.type === 'picklist' || issue.type === 'literal') {
      const choices = (issue.expected ?? '').replace(/^\((.*)\)$/, '$1').replaceAll(' | ', ' or ');
      return `must be ${choices} (got ${issue.received})`;
    }
    return `must be ${article(issue.expected ?? 'a value')} (got ${issue.received})`;
  }
  switch (issue.type) {
    case 'integer':
      return `must be an integer (got ${issue.received})`;
    case 'min_value':
      return `must be at least ${issue.expected?.replace('>=', '')} (got ${issue.received})`;
    case 'min_length':
      return 'must not be empty';
    default:
      return `must be ${issue.expected} (got ${issue.received})`;
  }
}

function article(expected: string): string {
  if (expected === 'Object') return 'an object';
  if (expected === 'Array') return 'an array';
  return /^[aeiou]/i.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * Map valibot issues found under `base` to Issues. A union failure on an object reports what the
 * object option missed (`$.resources[2].name is required`), not "expected string | Object".
 *
 * @example schemaIssues(v.safeParse(ManifestSchema, x, { abortEarly: false }).issues ?? [], '$')
 */
export function schemaIssues(issues: readonly AnyIssue[], base: string, effect?: string): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = pathOf(base, issue);
    const nested = issue.type === 'union' ? unionDetail(issue) : undefined;
    if (nested) {
      out.push(...schemaIssues(nested, path, effect));
      continue;
    }
    out.push(effect === undefined ? { path, message: describe(issue) } : { path, message: describe(issue), effect });
  }
  return out;
}

/** For an object given to a string-or-object union, the object option's own issues are the useful ones. */
function unionDetail(issue: AnyIssue): readonly AnyIssue[] | undefined {
  const input = issue.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const deeper = (issue.issues ?? []).filter((sub) => (sub.path?.length ?? 0) > 0);
  return deeper.length > 0 ? deeper : undefined;
}
