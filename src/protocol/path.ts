import { MarqueeError } from '../errors.js';
import { RESOURCE_NAMES } from './resource.js';

/**
 * Request path codec: `/{config?}/{resource}/{type}/{id}[/{extras}].json` exactly as the real
 * client encodes it. Every resource, type, id, extra name and value is encoded like JS
 * `encodeURIComponent`; extras are `&`-joined in any order; a repeated name is a list; `+` in
 * an extra reads as a space (as the official SDK reads it). Split first, decode after.
 */

export type ExtraPairs = ReadonlyArray<readonly [name: string, value: string]>;

export interface ResourcePath {
  readonly resource: string;
  readonly type: string;
  readonly id: string;
  readonly extra: ExtraPairs;
}

export type ParsedPath =
  | { readonly kind: 'manifest'; readonly config?: string }
  | { readonly kind: 'resource'; readonly config?: string; readonly path: ResourcePath };

/** Bounds on what a request path may hold; past them the request is refused, never processed. */
export const PATH_LIMITS = {
  /** Whole path, in characters, before decoding. */
  maxPathLength: 16_384,
  /** The config segment, in characters, before decoding. */
  maxConfigLength: 8_192,
  /** resource, type and id segments, in characters, before decoding. */
  maxSegmentLength: 1_024,
  /** The extras segment, in characters, before decoding. */
  maxExtraLength: 4_096,
  /** Number of `name=value` pairs in the extras segment. */
  maxExtraPairs: 32,
} as const;

const KNOWN_RESOURCES: ReadonlySet<string> = new Set(RESOURCE_NAMES);

function decode(segment: string, what: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MarqueeError('BAD_REQUEST', `malformed percent-encoding in the ${what}`);
  }
}

function tooLong(what: string, limit: number): MarqueeError {
  return new MarqueeError('BAD_REQUEST', `the ${what} is longer than ${limit} characters`);
}

/** Parse the raw (still encoded) extras segment into name/value pairs, in order. */
export function parseExtra(raw: string): ExtraPairs {
  if (raw === '') return [];
  if (raw.length > PATH_LIMITS.maxExtraLength) throw tooLong('extra segment', PATH_LIMITS.maxExtraLength);
  const parts = raw.split('&');
  if (parts.length > PATH_LIMITS.maxExtraPairs) {
    throw new MarqueeError('BAD_REQUEST', `more than ${PATH_LIMITS.maxExtraPairs} extra properties`);
  }
  const pairs: Array<readonly [string, string]> = [];
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([decode(name.replaceAll('+', ' '), 'extra name'), decode(value.replaceAll('+', ' '), 'extra value')]);
  }
  return pairs;
}

/** Encode extras as the client does: `encodeURIComponent` per name and value, `&`-joined. */
export function formatExtra(extra: ExtraPairs): string {
  return extra.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

/**
 * Parse a request pathname (after any mount prefix was removed; no query string).
 * Returns undefined for paths that are not add-on paths; throws BAD_REQUEST for unreadable ones.
 *
 * @example parseAddonPath('/catalog/movie/top/genre=Rock%20%26%20Roll&skip=100.json')
 */
export function parseAddonPath(pathname: string): ParsedPath | undefined {
  if (pathname.length > PATH_LIMITS.maxPathLength) throw tooLong('path', PATH_LIMITS.maxPathLength);
  if (!pathname.startsWith('/') || !pathname.endsWith('.json')) return undefined;
  const segments = pathname.slice(1, -'.json'.length).split('/');
  if (segments.some((s) => s === '')) return undefined;

  if (segments.length === 1 && segments[0] === 'manifest') return { kind: 'manifest' };
  if (segments.length === 2 && segments[1] === 'manifest') {
    return { kind: 'manifest', config: readConfig(segments[0]!) };
  }

  let config: string | undefined;
  let rest = segments;
  if (segments.length === 5 || (segments.length === 4 && hasConfigInFront(segments))) {
    config = readConfig(segments[0]!);
    rest = segments.slice(1);
  }
  if (rest.length !== 3 && rest.length !== 4) return undefined;
  const [resource, type, id, extra] = rest as [string, string, string, string | undefined];
  for (const [segment, what] of [
    [resource, 'resource'],
    [type, 'type'],
    [id, 'id'],
  ] as const) {
    if (segment.length > PATH_LIMITS.maxSegmentLength) throw tooLong(what, PATH_LIMITS.maxSegmentLength);
  }
  const path: ResourcePath = {
    resource: decode(resource, 'resource'),
    type: decode(type, 'type'),
    id: decode(id, 'id'),
    extra: extra === undefined ? [] : parseExtra(extra),
  };
  return config === undefined ? { kind: 'resource', path } : { kind: 'resource', config, path };
}

/** Four segments are `{config}/{resource}/{type}/{id}` when the second, not the first, names a resource. */
function hasConfigInFront(segments: readonly string[]): boolean {
  return !KNOWN_RESOURCES.has(segments[0]!) && KNOWN_RESOURCES.has(segments[1]!);
}

function readConfig(segment: string): string {
  if (segment.length > PATH_LIMITS.maxConfigLength) throw tooLong('config segment', PATH_LIMITS.maxConfigLength);
  return decode(segment, 'config segment');
}

/**
 * Format a resource path as the client requests it (leading slash, `.json` suffix).
 *
 * @example formatAddonPath({ resource: 'meta', type: 'tv', id: 'mq-tv:bbc1', extra: [] }) // '/meta/tv/mq-tv%3Abbc1.json'
 */
export function formatAddonPath(path: ResourcePath, config?: string): string {
  const head = config === undefined ? '' : `/${encodeURIComponent(config)}`;
  const extra = path.extra.length > 0 ? `/${formatExtra(path.extra)}` : '';
  return `${head}/${encodeURIComponent(path.resource)}/${encodeURIComponent(path.type)}/${encodeURIComponent(path.id)}${extra}.json`;
}

/** The manifest path, with the config segment when there is one. */
export function formatManifestPath(config?: string): string {
  return config === undefined ? '/manifest.json' : `/${encodeURIComponent(config)}/manifest.json`;
}
