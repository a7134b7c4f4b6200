/**
 * Pre-serialized lists in answers: the add-on still refuses a page over 100 items and checks the
 * items when asked, parses them for callers that want objects, and passes the bytes through
 * untouched to the server.
 */
import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../errors.js';
import { createAddon } from './create-addon.js';
import { allocRawJsonList, isRawJsonList, rawJsonList, serializeBody } from './raw-json.js';
import type { AddonRequest } from './types.js';

const manifest = {
  id: 'org.test.raw',
  version: '1.0.0',
  name: 'Raw',
  description: 'd',
  resources: ['catalog'],
  types: ['movie'],
  catalogs: [{ type: 'movie', id: 'top', name: 'Top' }],
} as const;

const metas = (n: number, poster = 'https://img.example/p.jpg') =>
  Array.from({ length: n }, (_, i) => ({ id: `tt${i}`, type: 'movie', name: `Film ${i}`, poster }));

const raw = (items: unknown[]) => rawJsonList(Buffer.from(JSON.stringify(items)), items.length);

function addonAnswering(items: unknown[], options: { validateRawJson?: boolean } = {}) {
  return createAddon({ manifest, handlers: { catalog: () => ({ metas: raw(items) as never }) }, ...options });
}

const request = (rawJson?: boolean): AddonRequest => ({
  resource: 'catalog',
  type: 'movie',
  id: 'top',
  extra: [],
  ...(rawJson === undefined ? {} : { rawJson }),
});

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('raw JSON lists', () => {
  it('passes the same bytes to a caller that takes raw lists, once checked', async () => {
    const list = raw(metas(3));
    const addon = createAddon({ manifest, handlers: { catalog: () => ({ metas: list as never }) } });
    const answer = await addon.handle(request(true));
    expect(answer.status === 200 && answer.body.metas).toBe(list);
    expect(answer.status === 200 && serializeBody(answer.body).toString()).toBe(JSON.stringify({ metas: metas(3) }));
  });

  it('hands parsed items to a caller that does not take raw lists', async () => {
    const answer = await addonAnswering(metas(2)).handle(request());
    expect(answer.status === 200 && answer.body).toEqual({ metas: metas(2) });
  });

  it('checks the items like any answer, unless told not to', async () => {
    const broken = metas(2, 'relative/poster.jpg');
    const error = await failure(() => addonAnswering(broken).handle(request(true)));
    expect(isMarqueeError(error, 'INVALID_RESPONSE')).toBe(true);
    expect(error.message).toContain('$.metas[0].poster');

    const unchecked = await addonAnswering(broken, { validateRawJson: false }).handle(request(true));
    expect(unchecked.status === 200 && isRawJsonList(unchecked.body.metas)).toBe(true);
  });

  it('refuses a page of more than 100 items even when the items are not checked', async () => {
    const error = await failure(() => addonAnswering(metas(101), { validateRawJson: false }).handle(request(true)));
    expect(isMarqueeError(error, 'INVALID_RESPONSE')).toBe(true);
    expect(error.message).toContain('101 items');
  });

  it('wraps a list written into its own allocation in place, without copying it', () => {
    const list = allocRawJsonList(9);
    list.bytes.write('[{"a":1}]');
    const body = serializeBody({ metas: list.done(1) });
    expect(body.toString()).toBe('{"metas":[{"a":1}]}');
    expect(body.buffer).toBe(list.bytes.buffer);
    // With other members it is copied like any list.
    expect(JSON.parse(serializeBody({ metas: list.done(1), more: 1 }).toString())).toEqual({
      metas: [{ a: 1 }],
      more: 1,
    });
  });

  it('serializes plain bodies as JSON.stringify does and splices raw lists in place', () => {
    expect(serializeBody({ metas: [{ id: 'a' }] }).toString()).toBe('{"metas":[{"id":"a"}]}');
    const body = { before: 'x"y', metas: raw([{ id: 'é' }]), after: [1], skipped: undefined };
    expect(JSON.parse(serializeBody(body).toString())).toEqual({ before: 'x"y', metas: [{ id: 'é' }], after: [1] });
  });
});
