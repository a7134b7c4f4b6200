import type { AddonEntry } from '../protocol/addon-entry.js';
import type { Catalog } from '../protocol/catalog.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Manifest } from '../protocol/manifest.js';
import type { Meta, MetaPreview } from '../protocol/meta.js';
import type { ExtraPairs } from '../protocol/path.js';
import type { CacheHints } from '../protocol/responses.js';
import type { Stream, Subtitle } from '../protocol/stream.js';
import type { RawJsonList } from './raw-list.js';

export type MaybePromise<T> = T | Promise<T>;

/** Lets `as const` manifests (readonly arrays and objects all the way down) be passed as they are. */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Values a user chose on /configure, typed from the manifest's `config` fields. */
export type ConfigValues<Fields extends readonly DeepReadonly<ConfigField>[] | undefined> =
  Fields extends readonly DeepReadonly<ConfigField>[]
    ? { [F in Fields[number] as F['key']]: ConfigValueOf<F> }
    : Record<string, never>;

type ConfigValueOf<F extends DeepReadonly<ConfigField>> = F['type'] extends 'number'
  ? FieldValue<F, number>
  : F['type'] extends 'checkbox'
    ? boolean
    : F['type'] extends 'select'
      ? F['options'] extends readonly (infer O extends string)[]
        ? FieldValue<F, O>
        : FieldValue<F, string>
      : FieldValue<F, string>;

/** A required field or one with a default always has a value; others may be missing. */
type FieldValue<F extends DeepReadonly<ConfigField>, T> = F['required'] extends true
  ? T
  : F extends { default: string }
    ? T
    : T | undefined;

/** The extras of a catalog request, decoded and checked against the catalog's declaration. */
export interface CatalogExtra {
  /** Search text, when the catalog declares `search` and the client searched. */
  readonly search?: string;
  /** Genre filter, when declared and given. */
  readonly genre?: string;
  /** Offset into the feed: any non-negative integer (the running count the client holds). 0 when absent. */
  readonly skip: number;
  /** UTC day `YYYY-MM-DD` of a guide request (tv catalogs declaring `date`). */
  readonly date?: string;
  /** Every declared extra as given; repeated names (optionsLimit > 1) are lists. */
  readonly all: Readonly<Record<string, string | readonly string[]>>;
}

/** The extras `CatalogExtra` names besides `skip` and `all`. */
type NamedExtra = 'search' | 'genre' | 'date';

/**
 * Names of the extras a manifest's catalogs declare, when the manifest is known at compile time
 * (`string` otherwise). @example DeclaredExtraNames<typeof manifest> // 'genre' | 'skip'
 */
export type DeclaredExtraNames<M> = M extends { readonly catalogs: readonly (infer C)[] }
  ? C extends { readonly extra?: readonly (infer E)[] }
    ? E extends { readonly name: infer N extends string }
      ? N
      : never
    : never
  : string;

/**
 * The catalog extras a handler can read: only those some catalog declares, so `extra.search`
 * in an add-on without a search catalog is a type error, not an `undefined` found in production.
 */
export type CatalogExtraFor<Names extends string> = string extends Names
  ? CatalogExtra
  : Pick<CatalogExtra, 'skip' | 'all' | Extract<Names, NamedExtra>>;

export interface RequestContext<Config> {
  /** The user's configuration (typed from the manifest's config fields), `{}` when none. */
  readonly config: Config;
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal?: AbortSignal;
  /**
   * The add-on's own base URL as this request reached it (`publicUrl` when one is set, else the
   * request's scheme and Host, with the mount prefix): for links back to the add-on in an answer.
   * Absent when the add-on is not asked over HTTP (an export, a test calling `handle`).
   */
  readonly origin?: string;
}

export interface CatalogRequest<Config = Record<string, unknown>, ExtraNames extends string = string>
  extends RequestContext<Config> {
  readonly type: string;
  readonly id: string;
  readonly extra: CatalogExtraFor<ExtraNames>;
  /** The declared catalog object this request is for. */
  readonly catalog: Catalog;
}

export interface ItemRequest<Config = Record<string, unknown>> extends RequestContext<Config> {
  readonly type: string;
  readonly id: string;
  /** Extras of the request (subtitles sends videoHash, videoSize, filename). */
  readonly extra: Readonly<Record<string, string | readonly string[]>>;
}

/** Handler results: the response body plus optional cache hints. */
/** A catalog page; a list may be pre-serialized JSON (`rawJsonList`), for pages written straight from a store. */
export type CatalogResult = ({ metas: MetaPreview[] | RawJsonList } | { metasDetailed: Meta[] | RawJsonList }) &
  CacheHints;
export type MetaResult = { meta: Meta | null } & CacheHints;
export type StreamResult = { streams: Stream[] } & CacheHints;
export type SubtitlesResult = { subtitles: Subtitle[] } & CacheHints;
export type AddonCatalogResult = { addons: AddonEntry[] } & CacheHints;

/** An add-on's handlers: one per resource it serves. Returning null/undefined means "nothing". */
export interface Handlers<Config = Record<string, unknown>, ExtraNames extends string = string> {
  catalog?: (request: CatalogRequest<Config, ExtraNames>) => MaybePromise<CatalogResult | null | undefined>;
  meta?: (request: ItemRequest<Config>) => MaybePromise<MetaResult | null | undefined>;
  stream?: (request: ItemRequest<Config>) => MaybePromise<StreamResult | null | undefined>;
  subtitles?: (request: ItemRequest<Config>) => MaybePromise<SubtitlesResult | null | undefined>;
  addonCatalog?: (request: ItemRequest<Config>) => MaybePromise<AddonCatalogResult | null | undefined>;
}

/** A request to an add-on, as the path codec reads it. */
export interface AddonRequest {
  readonly resource: string;
  readonly type: string;
  readonly id: string;
  readonly extra: ExtraPairs;
  /** The raw config segment (already percent-decoded), when the path had one. */
  readonly config?: string;
  readonly signal?: AbortSignal;
  /** The add-on's base URL as the request reached it (RequestContext.origin). */
  readonly origin?: string;
  /**
   * The caller serializes the body with `serializeBody` and takes pre-serialized lists as they
   * are (the server does). Otherwise they are parsed into objects before the answer is returned.
   */
  readonly rawJson?: boolean;
}

/** What the add-on answers; the server turns it into HTTP. */
export type AddonResponse =
  | { readonly status: 200; readonly body: Record<string, unknown>; readonly cache: CacheHints }
  | { readonly status: 404; readonly reason: string };

export type { Manifest };
