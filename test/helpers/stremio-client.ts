/**
 * The real Stremio client (`@stremio/stremio-core-web` 0.62.1) driven from tests: what it asks
 * our add-on for, and what it ends up holding. Loading the WASM lives in `stremio-core.ts`.
 *
 * Usage:
 *   const client = await createStremioClient();          // fresh instance, empty storage
 *   try {
 *     await client.installAddon(`${base}/manifest.json`);
 *     const all = await client.loadWholeCatalog({ transportUrl, type: 'movie', id: 'top' });
 *     expect(all.items).toHaveLength(250);
 *     expect(client.requestPaths(transportUrl)).toContain('/catalog/movie/top/skip=100.json');
 *   } finally { client.close(); }
 *
 * A test may make as many clients as it likes, side by side (each has its own WASM instance; ~20 ms).
 * Only 127.0.0.1/localhost/[::1] are reachable (never port 11470, the streaming server): the
 * default profile's official add-ons fail at once and their rows hold errors; filter by add-on.
 * Each high-level call dispatches, then waits until every request the action caused has been
 * answered and the client has published its new state (bounded by `timeoutMs`; the error shows
 * the requests and the last state).
 *
 * What the client holds, as observed (tests rely on it):
 *  - Invalid list items are dropped silently, the rest kept: a meta preview without `type`, a
 *    `poster` that is not an absolute URL, a stream `url` that is not a URL, a non-hex `infoHash`.
 *  - `skip` on the next page counts the valid items received so far (dropped ones not counted,
 *    duplicates counted); the items held are deduplicated by id across pages.
 *  - An empty first page is the error `EmptyContent`; a response with two wrapper keys is an error
 *    naming them; later pages' errors are not shown (only `hasNextPage` turns false).
 *  - `loadCatalog` drops a `skip` given in `extra`: paging always starts at 0.
 *  - Search rows hold at most 10 items each (the client's row preview).
 */
import type {
  AddonDescriptor,
  CatalogPage,
  CatalogRequest,
  ClientMetaItem,
  DiscoverState,
  Loadable,
  MetaDetailsState,
  MetaRequest,
  MetaResult,
  SearchRow,
  SearchState,
  StateField,
  WholeCatalog,
} from './stremio-client-types.js';
import { type LoadedCore, loadCore, type RecordedRequest } from './stremio-core.js';

export type * from './stremio-client-types.js';
export type { RecordedRequest } from './stremio-core.js';

export interface StremioClientOptions {
  /** Longest wait for one action, in ms (default 10 000). */
  readonly timeoutMs?: number;
  /** `navigator.language` (default `en-US`). */
  readonly language?: string;
  /** Called with each line the core logs; lines are kept in `coreLog()` either way. */
  readonly onLog?: (line: string) => void;
}

/** Waits until the state of `field` is what the action leads to; `since` = requests it caused. */
export type Ready<T> = (state: T, since: readonly RecordedRequest[]) => boolean;

export interface StremioClient {
  /** Fetch the manifest the way the Add-ons page does; the client's error text when it refuses it. */
  loadAddonDetails(transportUrl: string): Promise<{ descriptor: AddonDescriptor | null; error: string | null }>;
  /** Fetch, install and read back the installed descriptor. Throws with the client's reason. */
  installAddon(transportUrl: string): Promise<AddonDescriptor>;
  /** Open one catalog in Discover (first page). */
  loadCatalog(request: CatalogRequest): Promise<CatalogPage>;
  /** Scroll Discover to the next page; throws when the client offers none. */
  loadNextPage(): Promise<CatalogPage>;
  /** Open a catalog and page until the client stops (at most `maxPages` requests, default 20). */
  loadWholeCatalog(request: CatalogRequest, options?: { maxPages?: number }): Promise<WholeCatalog>;
  /** Search every installed add-on; rows of `addonId` only when given. */
  search(query: string, options?: { addonId?: string }): Promise<SearchRow[]>;
  /** Open the detail page of an item: its meta and its streams. */
  loadMeta(request: MetaRequest): Promise<MetaResult>;
  /** The raw serialised state of one model field. */
  getState<T = unknown>(field: StateField): T;
  /** Dispatch a raw action (`{ action, args }`), optionally to one model field. */
  dispatch(action: unknown, field?: StateField | null): void;
  /** Dispatch, then wait as the high-level calls do; `what` names the wait in the timeout error. */
  dispatchAndWait<T>(action: unknown, field: StateField, ready: Ready<T>, what: string): Promise<T>;
  /** Every request the client made (its own streaming-server polls included), oldest first. */
  requests(): readonly RecordedRequest[];
  /** Paths (raw, still encoded) requested from the add-on at `transportUrl`, relative to its base. */
  requestPaths(transportUrl: string): string[];
  clearRequests(): void;
  /** The core's console output (errors it logs for failed requests, panics). */
  coreLog(): readonly string[];
  /** Stop timers and abort requests in flight; the client is unusable afterwards. */
  close(): void;
}

const POLL_MS = 5;
/** Bound on the search rows loaded at once (one per searchable catalog of every add-on). */
const MAX_SEARCH_ROWS = 200;
const STATE_PREVIEW_CHARS = 4_000;

/** The client's error values as one line: strings, `{ message }`, `{ type: 'Env', content }`. */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { type, content, message } = error as { type?: unknown; content?: unknown; message?: unknown };
    if (typeof message === 'string') return message;
    if (typeof type === 'string' && content !== undefined) return `${type}: ${errorText(content)}`;
  }
  return JSON.stringify(error);
}

function readyOrError<T>(loadable: Loadable<T>, empty: T): { value: T; error: string | null } {
  if (loadable.type === 'Ready') return { value: loadable.content, error: null };
  return { value: empty, error: loadable.type === 'Err' ? errorText(loadable.content) : 'still loading' };
}

/** The path prefix every request of an add-on starts with: its address without `manifest.json`. */
function addonBase(transportUrl: string): URL {
  const base = new URL(transportUrl);
  base.pathname = base.pathname.replace(/manifest\.json$/, '');
  return base;
}

function relativePath(request: RecordedRequest, base: URL): string | null {
  const url = new URL(request.url);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  return `/${url.pathname.slice(base.pathname.length)}${url.search}`;
}

function describeRequests(requests: readonly RecordedRequest[]): string {
  if (requests.length === 0) return '  (none)';
  return requests
    .map((r) => `  GET ${r.url} -> ${r.status ?? (r.error === null ? 'pending' : `failed: ${r.error}`)}`)
    .join('\n');
}

/**
 * Start a real client with a fresh profile (Stremio's default add-ons, nothing of ours).
 * @example const client = await createStremioClient(); await client.installAddon(url); client.close();
 */
export async function createStremioClient(options: StremioClientOptions = {}): Promise<StremioClient> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const loaded: LoadedCore = await loadCore({ language: options.language ?? 'en-US', onLog: options.onLog });
  let closed = false;

  const dispatch = (action: unknown, field: StateField | null = null): void => {
    if (closed) throw new Error('stremio-client: used after close()');
    try {
      loaded.core.dispatch(action, field, '');
    } catch (error) {
      throw new Error(`stremio-client: the core refused ${JSON.stringify(action).slice(0, 300)}: ${errorText(error)}`);
    }
  };
  const getState = <T>(field: StateField): T => {
    if (closed) throw new Error('stremio-client: used after close()');
    try {
      return loaded.core.get_state(field) as T;
    } catch (error) {
      throw new Error(`stremio-client: no state "${field}": ${errorText(error)}`);
    }
  };

  const dispatchAndWait = async <T>(action: unknown, field: StateField, ready: Ready<T>, what: string): Promise<T> => {
    const mark = loaded.seq();
    dispatch(action, field);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // The streaming-server poll runs on its own clock and changes no model we wait for.
      const since = loaded.requests.filter((r) => r.startSeq > mark && !r.streamingServer);
      const settled = since.every((r) => r.settleSeq !== null);
      // After the last answer the core must have published the field again: it has processed it.
      const lastSettle = Math.max(...since.map((r) => r.settleSeq ?? 0));
      const published = since.length === 0 || loaded.lastNewState(field) > lastSettle;
      const state = getState<T>(field);
      if (settled && published && ready(state, since)) return state;
      if (Date.now() > deadline) {
        const preview = JSON.stringify(state).slice(0, STATE_PREVIEW_CHARS);
        throw new Error(
          `stremio-client: gave up after ${timeoutMs} ms waiting for ${what}.\n` +
            `Requests since the action:\n${describeRequests(since)}\n` +
            `Last state of "${field}": ${preview}\nCore log (last 10 lines):\n${loaded.log.slice(-10).join('\n')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const discoverPage = (state: DiscoverState): CatalogPage => {
    if (state.catalog === null) return { items: [], hasNextPage: false, error: 'the client holds no catalog' };
    const { value, error } = readyOrError(state.catalog.content, []);
    return { items: value, hasNextPage: state.selectable.nextPage, error };
  };

  const client: StremioClient = {
    async loadAddonDetails(transportUrl) {
      type State = { remoteAddon: { content: Loadable<AddonDescriptor> } | null };
      const action = { action: 'Load', args: { model: 'AddonDetails', args: { transportUrl } } };
      const state = await dispatchAndWait<State>(
        action,
        'addon_details',
        (s) => s.remoteAddon?.content.type !== 'Loading',
        `the manifest at ${transportUrl}`,
      );
      if (state.remoteAddon === null) return { descriptor: null, error: 'the client did not load the manifest' };
      const { value, error } = readyOrError<AddonDescriptor | null>(state.remoteAddon.content, null);
      return { descriptor: value, error };
    },

    async installAddon(transportUrl) {
      const { descriptor, error } = await client.loadAddonDetails(transportUrl);
      if (descriptor === null) throw new Error(`stremio-client: the client refused ${transportUrl}: ${error}`);
      type Ctx = { profile: { addons: AddonDescriptor[] } };
      const find = (s: Ctx) => s.profile.addons.find((addon) => addon.transportUrl === descriptor.transportUrl);
      const action = { action: 'Ctx', args: { action: 'InstallAddon', args: descriptor } };
      const ctx = await dispatchAndWait<Ctx>(action, 'ctx', (s) => find(s) !== undefined, `installing ${transportUrl}`);
      return find(ctx)!;
    },

    async loadCatalog({ transportUrl, type, id, extra = [] }) {
      const path = { resource: 'catalog', type, id, extra };
      const action = {
        action: 'Load',
        args: { model: 'CatalogWithFilters', args: { request: { base: transportUrl, path } } },
      };
      const state = await dispatchAndWait<DiscoverState>(
        action,
        'discover',
        (s) => s.catalog?.content.type !== 'Loading',
        `catalog ${type}/${id} of ${transportUrl}`,
      );
      return discoverPage(state);
    },

    async loadNextPage() {
      if (!getState<DiscoverState>('discover').selectable.nextPage) {
        throw new Error('stremio-client: the client offers no next page (selectable.nextPage is false)');
      }
      const action = { action: 'CatalogWithFilters', args: { action: 'LoadNextPage' } };
      // Nothing in the state says a next page is loading; wait for its request to be answered.
      return discoverPage(await dispatchAndWait(action, 'discover', (_, since) => since.length > 0, 'the next page'));
    },

    async loadWholeCatalog(request, { maxPages = 20 } = {}) {
      const mark = loaded.seq();
      let page = await client.loadCatalog(request);
      let pages = 1;
      while (page.hasNextPage) {
        if (pages >= maxPages) {
          throw new Error(`stremio-client: catalog ${request.type}/${request.id} still has a next page after ${pages}`);
        }
        page = await client.loadNextPage();
        pages += 1;
      }
      const base = addonBase(request.transportUrl);
      const requests = loaded.requests.filter((r) => r.startSeq > mark && relativePath(r, base) !== null);
      return { ...page, pages, requests };
    },

    async search(query, { addonId } = {}) {
      dispatch(
        { action: 'Load', args: { model: 'CatalogsWithExtra', args: { extra: [['search', query]] } } },
        'search',
      );
      const end = Math.min(getState<SearchState>('search').catalogs.length, MAX_SEARCH_ROWS);
      const action = { action: 'CatalogsWithExtra', args: { action: 'LoadRange', args: { start: 0, end } } };
      const loadedRows = (s: SearchState) => s.catalogs.slice(0, end);
      const state = await dispatchAndWait<SearchState>(
        action,
        'search',
        (s) => loadedRows(s).every((row) => row.content !== null && row.content.type !== 'Loading'),
        `search "${query}"`,
      );
      return loadedRows(state)
        .filter((row) => addonId === undefined || row.addon.manifest.id === addonId)
        .map((row) => {
          const { value, error } = readyOrError(row.content ?? { type: 'Loading' }, []);
          return {
            addonId: row.addon.manifest.id,
            catalogId: row.id,
            type: row.type,
            name: row.name,
            items: value,
            error,
          };
        });
    },

    async loadMeta({ transportUrl, type, id, videoId = id }) {
      const metaPath = { resource: 'meta', type, id, extra: [] };
      const streamPath = videoId === null ? null : { resource: 'stream', type, id: videoId, extra: [] };
      const action = {
        action: 'Load',
        args: { model: 'MetaDetails', args: { metaPath, streamPath, guessStream: false } },
      };
      const state = await dispatchAndWait<MetaDetailsState>(
        action,
        'meta_details',
        (s) => s.metaItem?.content.type !== 'Loading' && s.streams.every((g) => g.content.type !== 'Loading'),
        `meta ${type}/${id}`,
      );
      const streamGroups = state.streams.map((group) => {
        const { value, error } = readyOrError(group.content, []);
        return { transportUrl: group.addon.transportUrl, addonId: group.addon.manifest.id, streams: value, error };
      });
      const ours = streamGroups.filter((g) => transportUrl === undefined || g.transportUrl === transportUrl);
      const streams = ours.flatMap((g) => g.streams);
      const item = state.metaItem;
      if (item === null)
        return { meta: null, metaError: 'no installed add-on serves this meta', streams, streamGroups };
      if (transportUrl !== undefined && item.addon.transportUrl !== transportUrl) {
        return {
          meta: null,
          metaError: `the client shows the meta of ${item.addon.transportUrl}`,
          streams,
          streamGroups,
        };
      }
      const { value, error } = readyOrError<ClientMetaItem | null>(item.content, null);
      return { meta: value, metaError: error, streams, streamGroups };
    },

    getState,
    dispatch,
    dispatchAndWait,
    requests: () => loaded.requests,
    requestPaths(transportUrl) {
      const base = addonBase(transportUrl);
      return loaded.requests.flatMap((r) => relativePath(r, base) ?? []);
    },
    clearRequests: () => void loaded.requests.splice(0),
    coreLog: () => loaded.log,
    close() {
      closed = true;
      loaded.close();
    },
  };
  return client;
}
