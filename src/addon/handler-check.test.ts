import { describe, expect, it } from 'vitest';
import { isMarqueeError, type MarqueeError } from '../errors.js';
import { composeAddon } from './compose.js';
import { createAddon } from './create-addon.js';

const manifest = {
  id: 'org.test.handlers',
  version: '1.0.0',
  name: 'Handlers',
  description: 'd',
  types: ['movie'],
  catalogs: [{ type: 'movie', id: 'top', name: 'Top' }],
};

function refusal(run: () => unknown): MarqueeError {
  try {
    run();
  } catch (error) {
    if (isMarqueeError(error, 'INVALID_MANIFEST')) return error;
    throw error;
  }
  throw new Error('createAddon accepted it');
}

const errorsOf = (error: MarqueeError) => (error.details?.errors ?? []) as { path: string; message: string }[];

describe('createAddon checks the handlers against the manifest', () => {
  it('refuses a declared resource without its handler and a handler of an undeclared resource, listing both with the manifest errors', () => {
    const error = refusal(() =>
      createAddon({
        manifest: { ...manifest, version: '1.0', resources: ['catalog', 'meta'] },
        handlers: {
          catalog: () => ({ metas: [] }),
          // Declared nowhere: the client would never ask it.
          subtitles: () => ({ subtitles: [] }),
        } as never,
      }),
    );
    const errors = errorsOf(error);
    expect(errors.map((e) => e.path)).toEqual(['$.version', '$.resources[1]', 'handlers.subtitles']);
    expect(errors[1]!.message).toBe(
      '"meta" is declared but handlers.meta is missing: add the handler, or remove "meta" from resources',
    );
    expect(errors[2]!.message).toMatch(/^answers "subtitles", which the manifest's resources do not declare/);
    // The message lists every problem, as for manifest errors alone.
    expect(error.message).toMatch(
      /the manifest has 3 error\(s\):\n {2}\$\.version: .*\n {2}\$\.resources\[1\]: .*\n {2}handlers\.subtitles: /,
    );
  });

  it('names resource objects by their name and the add-on catalog handler by its resource', () => {
    const error = refusal(() =>
      createAddon({
        manifest: {
          ...manifest,
          resources: ['catalog', { name: 'stream', types: ['movie'] }],
        },
        handlers: { catalog: () => ({ metas: [] }), addonCatalog: () => ({ addons: [] }) } as never,
      }),
    );
    expect(errorsOf(error).map((e) => [e.path, e.message.slice(0, 40)])).toEqual([
      ['$.resources[1].name', '"stream" is declared but handlers.stream'],
      ['handlers.addonCatalog', 'answers "addon_catalog", which the manif'],
    ]);
  });

  it('refuses resources it cannot serve and unknown handler names', () => {
    const error = refusal(() =>
      createAddon({
        manifest: { ...manifest, catalogs: [], resources: ['stream', 'trailers'] },
        handlers: { stream: () => ({ streams: [] }), streams: () => ({ streams: [] }) } as never,
      }),
    );
    expect(errorsOf(error).map((e) => e.path)).toEqual(['$.resources[1]', 'handlers.streams']);
    expect(errorsOf(error)[0]!.message).toMatch(/^"trailers" has no handler: createAddon answers catalog, meta/);
  });

  it('accepts a manifest whose every resource has its handler', async () => {
    const addon = createAddon({
      manifest: { ...manifest, resources: ['catalog', 'stream'] },
      handlers: { catalog: () => ({ metas: [] }), stream: () => ({ streams: [] }) },
    });
    expect((await addon.handle({ resource: 'stream', type: 'movie', id: 'x', extra: [] })).status).toBe(200);
  });

  it('composes parts with only the handlers of the resources they declare', async () => {
    const addon = composeAddon({ id: 'org.test.compose', version: '1.0.0', name: 'C', description: '' }, [
      {
        name: 'streams-only',
        types: ['movie'],
        resources: ['stream'],
        catalogs: [],
        handlers: { stream: () => ({ streams: [{ url: 'https://v.example.org/a.mp4' }] }) },
      },
    ]);
    expect(addon.manifest.resources).toEqual([{ name: 'stream', types: ['movie'] }]);
    expect((await addon.handle({ resource: 'stream', type: 'movie', id: 'x', extra: [] })).status).toBe(200);
    expect((await addon.handle({ resource: 'meta', type: 'movie', id: 'x', extra: [] })).status).toBe(404);
  });
});
