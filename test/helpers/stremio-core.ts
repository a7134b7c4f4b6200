/**
 * Loads the real Stremio client core (`@stremio/stremio-core-web` 0.62.1, the WASM build the web
 * app runs in a worker) under plain Node, one isolated instance per call. Used only through
 * `stremio-client.ts`; this file knows the WASM glue, that one knows the client's models.
 *
 * Why a fresh instance per call, and not a per-process singleton: the core's runtime can start
 * once per WASM instance (a second `initialize_runtime` panics with "runtime initialization has
 * already started" and poisons the instance), and the package's JS glue keeps its instance in
 * module scope (`initSync` returns the cached one). So we evaluate the glue source ourselves with
 * `vm.compileFunction` for every client and hand it its own `self`, `document`,
 * `WorkerGlobalScope` and `console`: each client gets its own instance, memory, storage, fetch
 * guard and request log, nothing is written to `globalThis`, and clients can run side by side in
 * one process. The compiled `WebAssembly.Module` (4.8 MB) is shared; an instance starts in ~20 ms.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

/** A compiled `WebAssembly.Module` (the project's TypeScript libs do not declare WebAssembly). */
type WasmModule = object;
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule };
};

/** The functions of the WASM glue we call. */
export interface CoreBindings {
  initSync(options: { module: WasmModule }): unknown;
  initialize_runtime(emit: (event: CoreEvent) => void): Promise<void>;
  dispatch(action: unknown, field: string | null, locationHash: string): void;
  get_state(field: string): unknown;
}

/** What the core emits: `NewState` with the changed model fields, `CoreEvent`, `CoreAction`. */
export interface CoreEvent {
  readonly name: string;
  readonly args: unknown;
}

/** One HTTP request the core made, in order. `path` is the raw (still encoded) path and query. */
export interface RecordedRequest {
  readonly url: string;
  readonly path: string;
  /** True when the guard refused it (not loopback, or the streaming server port 11470). */
  readonly blocked: boolean;
  /** The core's own polling of the streaming server (at start and every 30 s), caused by no action. */
  readonly streamingServer: boolean;
  /** HTTP status once answered; null while pending or when it failed. */
  status: number | null;
  /** Why it failed (blocked, network error, body too large); null otherwise. */
  error: string | null;
  /** Order numbers on the loaded core's clock (see LoadedCore.seq): when it started and settled. */
  readonly startSeq: number;
  settleSeq: number | null;
}

export interface LoadedCore {
  readonly core: CoreBindings;
  /** Every request, oldest first (bounded to MAX_RECORDED_REQUESTS, oldest dropped). */
  readonly requests: RecordedRequest[];
  /** The core's console output (bounded to MAX_LOG_LINES). */
  readonly log: string[];
  /** A counter bumped by every request start, request settle and `NewState` event. */
  seq(): number;
  /** The `seq` of the latest `NewState` event that named `field` (0 if none yet). */
  lastNewState(field: string): number;
  /** Stop the core's timers and abort its requests in flight. */
  close(): void;
}

export interface LoadOptions {
  /** `navigator.language` as the core sees it. */
  readonly language: string;
  /** Also called with each line the core logs (it keeps them in `log` either way). */
  readonly onLog?: ((line: string) => void) | undefined;
}

/** A response body larger than this fails the request (guide pages reach ~1 MB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_RECORDED_REQUESTS = 10_000;
const MAX_LOG_LINES = 500;
/** The streaming server; the core polls it on start and every 30 s. Never reachable in tests. */
const STREAMING_SERVER_PORT = '11470';
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const requireHere = createRequire(import.meta.url);
const gluePath = requireHere.resolve('@stremio/stremio-core-web');
const glueRequire = createRequire(gluePath);
const nodeFetch = globalThis.fetch;
let compiled: { glue: string; wasm: WasmModule } | undefined;

function compiledCore(): { glue: string; wasm: WasmModule } {
  compiled ??= {
    glue: readFileSync(gluePath, 'utf8'),
    wasm: new Wasm.Module(readFileSync(glueRequire.resolve('./stremio_core_web_bg.wasm'))),
  };
  return compiled;
}

/** True when the core may reach `url`: loopback hosts only, never the streaming server port. */
export function isReachable(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) && url.port !== STREAMING_SERVER_PORT;
}

async function readBody(response: Response, limit: number): Promise<Uint8Array | null> {
  if (response.body === null) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) throw new Error(`response body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Start one client core with an empty in-memory storage (the default profile, with Stremio's
 * official add-ons, whose remote requests the guard refuses at once).
 * @example const loaded = await loadCore({ language: 'en-US' }); loaded.core.get_state('ctx');
 */
export async function loadCore(options: LoadOptions): Promise<LoadedCore> {
  const { glue, wasm } = compiledCore();
  let seq = 0;
  const newStateSeq = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const log: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const aborter = new AbortController();
  const storage = new Map<string, string>();

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const record: RecordedRequest = {
      url: request.url,
      path: url.pathname + url.search,
      blocked: !isReachable(url),
      streamingServer: url.port === STREAMING_SERVER_PORT,
      status: null,
      error: null,
      startSeq: ++seq,
      settleSeq: null,
    };
    requests.push(record);
    if (requests.length > MAX_RECORDED_REQUESTS) requests.shift();
    try {
      if (record.blocked) throw new TypeError(`blocked ${request.url}: tests reach only loopback add-ons`);
      // Buffer the whole body before the core sees the response, so "settled" means the core
      // holds everything and only its own (microtask) processing is left.
      const response = await nodeFetch(request, { signal: aborter.signal });
      const body = await readBody(response, MAX_BODY_BYTES);
      record.status = response.status;
      const { status, statusText, headers } = response;
      return new Response(NULL_BODY_STATUSES.has(status) ? null : body, { status, statusText, headers });
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      record.settleSeq = ++seq;
    }
  };

  const keepLine = (format?: unknown, ...rest: unknown[]): void => {
    // The core styles its lines for a browser console: one CSS argument per `%c`. Keep the text.
    const text = String(format);
    const styles = text.match(/%c/g)?.length ?? 0;
    const line = [text.replace(/%c/g, ''), ...rest.slice(styles).map(String)].join(' ').trim();
    log.push(line);
    if (log.length > MAX_LOG_LINES) log.shift();
    options.onLog?.(line);
  };
  const quietConsole = { log: keepLine, info: keepLine, warn: keepLine, error: keepLine, debug: keepLine };

  const scope = {
    crypto: globalThis.crypto,
    performance: globalThis.performance,
    navigator: { language: options.language },
    queueMicrotask: globalThis.queueMicrotask,
    fetch: guardedFetch,
    // Unref'd and tracked: the core's 30 s streaming-server poll must not keep a test process alive.
    setInterval: (handler: () => void, ms?: number): NodeJS.Timeout => {
      const timer = setInterval(handler, ms).unref();
      timers.add(timer);
      return timer;
    },
    local_storage_get_item: async (key: string) => storage.get(key) ?? null,
    local_storage_set_item: async (key: string, value: string) => void storage.set(key, value),
    local_storage_remove_item: async (key: string) => void storage.delete(key),
    get_location_hash: async () => '',
    app_version: 'marquee-tests',
    shell_version: null,
  };
  const WorkerGlobalScope = function WorkerGlobalScope(): void {};
  Object.defineProperty(WorkerGlobalScope, Symbol.hasInstance, { value: (value: unknown) => value === scope });

  const params = ['exports', 'require', 'module', 'self', 'document', 'WorkerGlobalScope', 'console'];
  const evaluate = vm.compileFunction(glue, params, { filename: gluePath });
  const module = { exports: {} as CoreBindings };
  evaluate(
    module.exports,
    glueRequire,
    module,
    scope,
    { baseURI: 'http://127.0.0.1/' },
    WorkerGlobalScope,
    quietConsole,
  );
  const core = module.exports;
  core.initSync({ module: wasm });
  await core.initialize_runtime((event) => {
    if (event.name !== 'NewState' || !Array.isArray(event.args)) return;
    seq += 1;
    for (const field of event.args) newStateSeq.set(String(field), seq);
  });

  return {
    core,
    requests,
    log,
    seq: () => seq,
    lastNewState: (field) => newStateSeq.get(field) ?? 0,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      aborter.abort();
    },
  };
}
