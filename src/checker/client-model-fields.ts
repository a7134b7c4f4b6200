/**
 * The client model's building blocks: a field rule (name, required, what it accepts, what the
 * client wants) and the checks every rule of client-model.ts and client-model-manifest.ts is
 * written with, and the issues they give.
 */
import { isAbsoluteUrl, isRfc3339 } from '../protocol/index.js';

export interface ClientIssue {
  /** Stable rule id (`stream.title+description`); docs/checker.md lists them. */
  readonly rule: string;
  readonly path: string;
  readonly message: string;
}

export type Json = Record<string, unknown>;
export type Accepts = (value: unknown) => boolean;

export interface Field {
  readonly name: string;
  readonly required?: boolean;
  readonly accepts: Accepts;
  /** What the client wants, for the message. */
  readonly wants: string;
}

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const absent = (v: unknown) => v === undefined || v === null;
export const str: Accepts = (v) => typeof v === 'string';
export const optStr: Accepts = (v) => absent(v) || typeof v === 'string';
export const optBool: Accepts = (v) => absent(v) || typeof v === 'boolean';
export const optNumber: Accepts = (v) => absent(v) || typeof v === 'number';
export const url: Accepts = (v) => typeof v === 'string' && isAbsoluteUrl(v);
/** Images: the client reads "" and null as "no image"; anything else must be an absolute URL. */
export const image: Accepts = (v) => absent(v) || v === '' || url(v);
export const date: Accepts = (v) => absent(v) || (typeof v === 'string' && isRfc3339(v));
export const listOf =
  (item: Accepts): Accepts =>
  (v) =>
    absent(v) || (Array.isArray(v) && v.every(item));
export const objectWith =
  (fields: readonly Field[]): Accepts =>
  (v) =>
    isRecord(v) && fieldIssues('', v, fields, '').length === 0;

export function fieldIssues(kind: string, item: Json, fields: readonly Field[], base: string): ClientIssue[] {
  const out: ClientIssue[] = [];
  for (const field of fields) {
    const value = item[field.name];
    const path = `${base}.${field.name}`;
    if (value === undefined && field.required) {
      out.push({ rule: `${kind}.${field.name}`, path, message: `is missing: the client needs ${field.wants}` });
    } else if (value !== undefined && !field.accepts(value)) {
      out.push({ rule: `${kind}.${field.name}`, path, message: `must be ${field.wants} (got ${preview(value)})` });
    }
  }
  return out;
}

export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export function notObject(kind: string, path: string, item: unknown): ClientIssue[] {
  return isRecord(item) ? [] : [{ rule: `${kind}.object`, path, message: `must be an object (got ${preview(item)})` }];
}
