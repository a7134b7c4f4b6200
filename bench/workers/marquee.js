/**
 * The catalog as a Marquee add-on on a Worker (`stremio-marquee/fetch`). Bindings choose the
 * server's options: CACHE=off serves without the response cache (every request builds the page),
 * VALIDATE=off without checking the handler's answers against the protocol.
 */
import { createAddon, createRequestHandler, toFetchHandler } from 'stremio-marquee/fetch';
import { pageAt } from './films.js';

let serve;

export default {
  fetch(request, env) {
    serve ??= toFetchHandler(
      createRequestHandler(
        createAddon({
          manifest: {
            id: 'org.bench.worker',
            version: '1.0.0',
            name: 'Bench',
            description: 'CPU time per request in workerd',
            resources: ['catalog'],
            types: ['movie'],
            catalogs: [{ type: 'movie', id: 'films', name: 'Films', extra: [{ name: 'skip' }] }],
          },
          handlers: { catalog: ({ extra }) => ({ metas: pageAt(extra.skip ?? 0) }) },
          validateResponses: env.VALIDATE !== 'off',
        }),
        env.CACHE === 'off' ? { responseCache: false } : {},
      ),
    );
    return serve(request);
  },
};
