/**
 * Shapes of what the real Stremio client holds (its serialised models, as observed from
 * `@stremio/stremio-core-web` 0.62.1) and of the results of `stremio-client.ts`. Only the fields
 * tests read are typed; the index signatures keep the rest reachable.
 */
import type { RecordedRequest } from './stremio-core.js';

export type StateField = 'ctx' | 'discover' | 'search' | 'meta_details' | 'addon_details' | 'board' | (string & {});

export type Loadable<T, E = unknown> =
  | { type: 'Loading' }
  | { type: 'Ready'; content: T }
  | { type: 'Err'; content: E };

/** A catalog item as the client holds it (absent fields are null). */
export interface ClientMetaPreview {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly poster: string | null;
  readonly posterShape: string;
  readonly description: string | null;
  readonly [field: string]: unknown;
}
export interface ClientVideo {
  readonly id: string;
  readonly title: string;
  readonly released: string | null;
  readonly [field: string]: unknown;
}
export interface ClientMetaItem extends ClientMetaPreview {
  readonly videos: readonly ClientVideo[];
}
export interface ClientStream {
  readonly url?: string;
  readonly infoHash?: string;
  readonly ytId?: string;
  readonly externalUrl?: string;
  readonly name?: string | null;
  readonly description?: string | null;
  readonly [field: string]: unknown;
}
/** An installed add-on as the client stores it (manifest normalised: nulls and defaults filled). */
export interface AddonDescriptor {
  readonly manifest: {
    readonly id: string;
    readonly version: string;
    readonly name: string;
    readonly catalogs: ReadonlyArray<{ id: string; type: string; name: string | null; extra: readonly ClientExtra[] }>;
    readonly [field: string]: unknown;
  };
  readonly transportUrl: string;
  readonly flags: { readonly official: boolean; readonly protected: boolean };
}
export interface ClientExtra {
  readonly name: string;
  readonly isRequired: boolean;
  readonly options: readonly string[];
  readonly optionsLimit: number;
}

export interface CatalogRequest {
  readonly transportUrl: string;
  readonly type: string;
  readonly id: string;
  readonly extra?: ReadonlyArray<readonly [name: string, value: string]>;
}
/** What the client holds for the selected catalog: all pages so far. `error` when it failed. */
export interface CatalogPage {
  readonly items: readonly ClientMetaPreview[];
  readonly hasNextPage: boolean;
  readonly error: string | null;
}
export interface WholeCatalog extends CatalogPage {
  /** How many page requests the client made, the final empty or failed one included. */
  readonly pages: number;
  /** The requests the client made to the add-on while paging, in order. */
  readonly requests: readonly RecordedRequest[];
}
export interface SearchRow {
  readonly addonId: string;
  readonly catalogId: string;
  readonly type: string;
  readonly name: string;
  readonly items: readonly ClientMetaPreview[];
  readonly error: string | null;
}
export interface StreamGroup {
  readonly transportUrl: string;
  readonly addonId: string;
  readonly streams: readonly ClientStream[];
  readonly error: string | null;
}
export interface MetaRequest {
  /** Only accept the meta and streams of this add-on (the client asks every add-on that matches). */
  readonly transportUrl?: string;
  readonly type: string;
  readonly id: string;
  /** The video whose streams to list; defaults to `id` (a movie); null lists none. */
  readonly videoId?: string | null;
}
export interface MetaResult {
  readonly meta: ClientMetaItem | null;
  readonly metaError: string | null;
  /** Streams of the chosen add-on (or of all add-ons without `transportUrl`). */
  readonly streams: readonly ClientStream[];
  readonly streamGroups: readonly StreamGroup[];
}

/** The serialised models the driver reads (fields it needs only). */
export interface DiscoverState {
  selectable: { nextPage: boolean };
  catalog: { content: Loadable<ClientMetaPreview[], string> } | null;
}
export interface SearchState {
  catalogs: Array<{
    id: string;
    name: string;
    type: string;
    addon: { manifest: { id: string } };
    content: Loadable<ClientMetaPreview[], string> | null;
  }>;
}
export interface AddonRef {
  transportUrl: string;
  manifest: { id: string };
}
export interface MetaDetailsState {
  metaItem: { content: Loadable<ClientMetaItem>; addon: AddonRef } | null;
  streams: Array<{ content: Loadable<ClientStream[]>; addon: AddonRef }>;
}
