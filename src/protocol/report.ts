import type { Issue } from '../errors.js';

/**
 * The error/warning split shared by the validators, and guards for walking input that has not
 * passed its schema yet: rule checks run even when the shape is wrong, so that every problem is
 * reported at once, and they skip only the fields whose shape the schema already reported.
 */

/** Problems found in one document: errors refuse it, warnings are printed and let it through. */
export interface Report {
  readonly errors: Issue[];
  readonly warnings: Issue[];
}

/** A response problem: errors break the protocol or lose data in the client; warnings are advice. */
export interface ResponseIssue extends Issue {
  readonly severity: 'error' | 'warning';
}

/** Collects issues for one document; rule functions receive it and add to either list. */
export interface Collector {
  error(path: string, message: string, effect?: string): void;
  warning(path: string, message: string, effect?: string): void;
}

/** A collector writing into `report`. */
export function collector(report: Report): Collector {
  const make = (path: string, message: string, effect?: string): Issue =>
    effect === undefined ? { path, message } : { path, message, effect };
  return {
    error: (path, message, effect) => void report.errors.push(make(path, message, effect)),
    warning: (path, message, effect) => void report.warnings.push(make(path, message, effect)),
  };
}

export type Json = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The array at `value`, or an empty one when it is not an array (its schema issue is reported elsewhere). */
export function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The strings of an array, ignoring other entries. */
export function stringsOf(value: unknown): string[] {
  return arrayOf(value).filter((x): x is string => typeof x === 'string');
}

/**
 * A user value quoted for a message, cut to a readable length: messages must not grow with the input.
 *
 * @example quote('1.0') // '"1.0"'
 */
export function quote(value: string, max = 60): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max - 1)}…` : value);
}
