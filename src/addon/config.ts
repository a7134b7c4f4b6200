import { MarqueeError } from '../errors.js';
import type { ConfigField } from '../protocol/config-field.js';

/**
 * How user configuration travels in the path's config segment. The default is the official
 * SDK's: `encodeURIComponent(JSON.stringify(values))` (the path codec already undid the
 * percent-encoding). An encrypting codec can replace it without the handlers noticing.
 */
export interface ConfigCodec {
  /** Read a segment back into raw values; undefined when it is not ours (tampered, unknown key). */
  decode(segment: string): Record<string, unknown> | undefined;
  /** Write values as a segment (before percent-encoding). */
  encode(values: Record<string, unknown>): string;
}

/**
 * A codec whose work is asynchronous: the encrypted tokens of Web Crypto
 * (`createWebTokenCodec`), which every runtime has. The add-on and the server await it where they
 * call a `ConfigCodec` directly; tokens are the same bytes either way.
 */
export interface AsyncConfigCodec {
  decode(segment: string): Promise<Record<string, unknown> | undefined>;
  encode(values: Record<string, unknown>): Promise<string>;
}

/** Either kind of codec: what an add-on may be given. */
export type AnyConfigCodec = ConfigCodec | AsyncConfigCodec;

/** Whether a codec's answer is a promise (an asynchronous codec's). */
export function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** The official SDK's codec: the segment is the JSON of the values. */
export const jsonConfigCodec: ConfigCodec = {
  decode(segment) {
    try {
      const value: unknown = JSON.parse(segment);
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  },
  encode(values) {
    return JSON.stringify(values);
  },
};

export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
}

const TRUE_WORDS = new Set(['true', 'on', 'checked', '1', 'yes']);
const FALSE_WORDS = new Set(['false', 'off', '', '0', 'no']);
const MAX_TEXT = 2_048;

/**
 * Check raw values against the declared fields and type them: numbers as numbers, checkboxes as
 * booleans, selects among their options; defaults fill missing values; unknown keys are dropped.
 *
 * @example coerceConfig([{ key: 'n', type: 'number' }], { n: '5' }) // { values: { n: 5 }, problems: [] }
 */
export function coerceConfig(
  fields: readonly ConfigField[],
  raw: Record<string, unknown>,
): { values: Record<string, unknown>; problems: ConfigProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  for (const field of fields) {
    const given = Object.hasOwn(raw, field.key) ? raw[field.key] : undefined;
    const value = given === undefined || given === null || given === '' ? field.default : given;
    if (value === undefined) {
      if (field.type === 'checkbox') values[field.key] = false;
      else if (field.required) problems.push({ key: field.key, message: 'is required' });
      continue;
    }
    const typed = coerceValue(field, value);
    if (typed instanceof Problem) problems.push({ key: field.key, message: typed.message });
    else values[field.key] = typed;
  }
  return { values, problems };
}

class Problem {
  constructor(readonly message: string) {}
}

function coerceValue(field: ConfigField, value: unknown): unknown {
  switch (field.type) {
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
      return Number.isFinite(n) ? n : new Problem('must be a number');
    }
    case 'checkbox': {
      if (typeof value === 'boolean') return value;
      const word = String(value).trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return new Problem('must be true or false');
    }
    case 'select': {
      const text = String(value);
      return field.options?.includes(text) ? text : new Problem(`must be one of: ${(field.options ?? []).join(', ')}`);
    }
    default: {
      if (typeof value !== 'string' && typeof value !== 'number') return new Problem('must be text');
      const text = String(value);
      return text.length > MAX_TEXT ? new Problem(`must be at most ${MAX_TEXT} characters`) : text;
    }
  }
}

/** Decode and check a config segment; throws INVALID_CONFIG with every problem. */
export function readConfig(
  codec: ConfigCodec,
  fields: readonly ConfigField[],
  segment: string | undefined,
): Record<string, unknown> {
  return checkConfig(fields, segment === undefined ? {} : codec.decode(segment));
}

/** Check decoded values (undefined: the segment could not be read); throws INVALID_CONFIG with every problem. */
export function checkConfig(
  fields: readonly ConfigField[],
  raw: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (raw === undefined) throw new MarqueeError('INVALID_CONFIG', 'the configuration segment cannot be read');
  const { values, problems } = coerceConfig(fields, raw);
  if (problems.length > 0) {
    throw new MarqueeError('INVALID_CONFIG', problems.map((p) => `${p.key} ${p.message}`).join('; '), {
      details: { problems },
    });
  }
  return values;
}
