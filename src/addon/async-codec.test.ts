/**
 * An add-on given an asynchronous config codec (Web Crypto's): `manifestFor` answers a promise,
 * `handle` awaits the codec, and a segment it cannot read is a 404 as with a synchronous codec.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AsyncConfigCodec } from './config.js';
import { createAddon } from './create-addon.js';
import type { AddonResponse } from './types.js';

/** A codec that answers later: the values are the segment reversed, as JSON. */
const reversed: AsyncConfigCodec = {
  async decode(segment) {
    await new Promise((r) => setTimeout(r, 1));
    try {
      return JSON.parse([...segment].reverse().join('')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  },
  async encode(values) {
    return [...JSON.stringify(values)].reverse().join('');
  },
};

const addon = createAddon({
  manifest: {
    id: 'org.test.async',
    version: '1.0.0',
    name: 'Async',
    description: '',
    resources: ['stream'],
    types: ['movie'],
    idPrefixes: ['tt'],
    catalogs: [],
    config: [{ key: 'n', type: 'number', required: true }],
  },
  configCodec: reversed,
  handlers: { stream: ({ config }) => ({ streams: [{ url: `https://cdn.example/${config.n}.mp4` }] }) },
});

describe('an add-on with an asynchronous config codec', () => {
  it('answers the manifest of a configuration with a promise, 404 for one it cannot read or check', async () => {
    const segment = await reversed.encode({ n: '5' });
    const answer = addon.manifestFor(segment);
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(200);
    expect((await addon.manifestFor('not json')).status).toBe(404);
    expect((await addon.manifestFor(await reversed.encode({ n: 'five' }))).status).toBe(404);
    expect((await addon.manifestFor()).status).toBe(200);
  });

  it('types the configuration for the handlers after awaiting the codec', async () => {
    const config = await reversed.encode({ n: '7' });
    const answer = await addon.handle({ resource: 'stream', type: 'movie', id: 'tt1', extra: [], config });
    expect(answer).toMatchObject({ status: 200, body: { streams: [{ url: 'https://cdn.example/7.mp4' }] } });
    const bad = await addon.handle({ resource: 'stream', type: 'movie', id: 'tt1', extra: [], config: 'x' });
    expect(bad.status).toBe(404);
  });
});

describe('the codec kind in the types', () => {
  it('keeps manifestFor synchronous for a synchronous codec, a promise for an asynchronous one', () => {
    const plain = createAddon({
      manifest: {
        id: 'org.test.plain',
        version: '1.0.0',
        name: 'Plain',
        description: '',
        resources: ['stream'],
        types: ['movie'],
        idPrefixes: ['tt'],
        catalogs: [],
      },
      handlers: { stream: () => ({ streams: [] }) },
    });
    expectTypeOf(plain.manifestFor).returns.toEqualTypeOf<AddonResponse>();
    expectTypeOf(addon.manifestFor).returns.toEqualTypeOf<Promise<AddonResponse>>();
  });
});
