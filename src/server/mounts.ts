import { localPath } from './request-path.js';
import type { CoreRequest, CoreResponse, MountedHandler } from './types.js';

/** What sends a request to a mounted handler: its answer, or undefined when the request is not one of theirs. */
export type MountRouter = (request: CoreRequest) => CoreResponse | Promise<CoreResponse> | undefined;

/**
 * Routes to the handlers mounted under first path segments of their own (`ServerOptions.mounts`):
 * `/relay/…` under `basePath` goes to `mounts.relay` with the path after its segment. Undefined
 * when nothing is mounted. Mounts get every method but OPTIONS (CORS preflights are answered by
 * the core) and come ahead of any per-address rate limit: they keep limits of their own.
 * @example const toMount = mountRouter({ relay: relay.handle }, ''); const answer = toMount?.(request)
 */
export function mountRouter(
  mounts: Readonly<Record<string, MountedHandler>> | undefined,
  basePath: string,
): MountRouter | undefined {
  if (mounts === undefined || Object.keys(mounts).length === 0) return undefined;
  return (request) => {
    if (request.method === 'OPTIONS') return undefined;
    const path = localPath(request.url, basePath);
    if (path === undefined) return undefined;
    const slash = path.indexOf('/', 1);
    const name = path.slice(1, slash === -1 ? undefined : slash);
    const handler = Object.hasOwn(mounts, name) ? mounts[name] : undefined;
    return handler?.(request, slash === -1 ? '' : path.slice(slash));
  };
}
