/**
 * Where the real client is more lenient or stricter than the protocol's validators: each entry
 * is shown by a differential test that feeds the same answer to stremio-core
 * (test/checker-calibration.test.ts), and changes the severity of a finding the validators make,
 * or adds one they miss. `error` means the client loses something; what it accepts is a warning.
 */
import type { Severity } from './types.js';

interface Leniency {
  /** The finding's JSON path. */
  readonly path: RegExp;
  readonly message: RegExp;
  /** Also required of the value at that path (a `poster` of `""`, not any relative URL). */
  readonly value?: (value: unknown) => boolean;
  readonly severity: Severity;
  readonly effect: string;
}

const TESTED = '(test/checker-calibration.test.ts)';

/** Manifest findings the client does not make errors of. */
export const MANIFEST_LENIENCY: readonly Leniency[] = [
  {
    path: /^\$\.description$/,
    message: /is required/,
    severity: 'warning',
    effect: `spec: a manifest has a description; the real client installs one without ${TESTED}`,
  },
  {
    path: /^\$\.catalogs\[\d+\]\.name$/,
    message: /is required/,
    severity: 'warning',
    effect: `spec: a catalog has a name; the real client lists and requests one without ${TESTED}`,
  },
  {
    path: /^\$\.catalogs$/,
    message: /resources has no "catalog"/,
    severity: 'warning',
    effect: `spec: catalogs need "catalog" in resources; the real client requests them anyway ${TESTED}`,
  },
];

/** Meta findings the client does not fail the page for. */
export const ITEM_LENIENCY: readonly Leniency[] = [
  {
    path: /\.website$/,
    message: /got null/,
    severity: 'warning',
    effect: `the real client accepts website: null ${TESTED}`,
  },
  {
    path: /\.poster$/,
    message: /absolute URL/,
    value: (value) => value === '',
    severity: 'warning',
    effect: `the real client keeps an item with poster: "" and shows no poster ${TESTED}`,
  },
  {
    path: /\.posterShape$/,
    message: /square, poster or landscape/,
    severity: 'warning',
    effect: `the real client reads an unknown posterShape as "poster" ${TESTED}`,
  },
];

/** The calibrated severity and effect of a validator finding, or undefined when it stands. */
export function calibrate(
  table: readonly Leniency[],
  path: string | undefined,
  message: string,
  value: () => unknown,
): { severity: Severity; effect: string } | undefined {
  if (path === undefined) return undefined;
  const hit = table.find(
    (l) => l.path.test(path) && l.message.test(message) && (l.value === undefined || l.value(value())),
  );
  return hit === undefined ? undefined : { severity: hit.severity, effect: hit.effect };
}

/** The value at a JSON path like `$.metas[3].poster` in `body`. */
export function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const part of path.replace(/^\$\.?/, '').match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export const STREAM_TITLE_AND_DESCRIPTION = {
  message: 'carries both title and description',
  effect: `the real client reads title as another name for description and drops the stream ${TESTED}`,
};

/**
 * An item as the client reads it where it is lenient (ITEM_LENIENCY): an empty poster, an unknown
 * posterShape and a null website are as if absent. The checker samples such items like any other.
 */
export function asClientReadsItem(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const { poster, posterShape, website, ...rest } = item as Record<string, unknown>;
  return {
    ...rest,
    ...(poster !== '' && poster !== undefined ? { poster } : {}),
    ...(posterShape === 'square' || posterShape === 'poster' || posterShape === 'landscape' ? { posterShape } : {}),
    ...(website !== null && website !== undefined ? { website } : {}),
  };
}
