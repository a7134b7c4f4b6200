import { describe, expect, it } from 'vitest';
import { createAddon } from './create-addon.js';
import { warmUp } from './warm.js';

const NOW = Date.UTC(2026, 10, 24, 22, 30);

function addonLogging(calls: string[], failing = false) {
  return createAddon({
    manifest: {
      id: 'org.test.warm',
      version: '1.0.0',
      name: 'Warm',
      description: 'd',
      resources: ['catalog'],
      types: ['tv', 'movie'],
      catalogs: [
        { type: 'tv', id: 'channels', name: 'Channels', extra: [{ name: 'date' }, { name: 'skip' }] },
        { type: 'movie', id: 'found', name: 'Found', extra: [{ name: 'search', isRequired: true }] },
        { type: 'movie', id: 'top', name: 'Top' },
      ],
      behaviorHints: { epgProvider: true },
    },
    handlers: {
      catalog: ({ type, id, extra }) => {
        calls.push(
          `${type}/${id}${extra.date ? ` date=${extra.date}` : ''}${extra.skip ? ` skip=${extra.skip}` : ''}${extra.search ? ` search=${extra.search}` : ''}`,
        );
        if (failing && id === 'top') throw new Error('store closed');
        // A guide of 250 channels: pages at skip 0, 100 and 200.
        const channels = Math.max(0, Math.min(100, 250 - (extra.skip ?? 0)));
        const metas = Array.from({ length: channels }, (_, i) => ({
          id: `tv${i}`,
          type: 'tv',
          name: `TV ${i}`,
          behaviorHints: { isLive: true, hasScheduledVideos: true },
          videos: [],
        }));
        return type === 'tv' && extra.date ? { metasDetailed: metas } : { metas: [] };
      },
    },
  });
}

describe('warmUp', () => {
  it("asks each catalog's first page and a date catalog's page of today, once per round, never a required extra", async () => {
    const calls: string[] = [];
    const result = await warmUp(addonLogging(calls), { rounds: 2, now: NOW });
    const round = ['tv/channels', 'tv/channels date=2026-11-24', 'movie/top'];
    // Then the day's further pages, once, until the guide ends.
    const pages = ['skip=100', 'skip=200', 'skip=300'].map((skip) => `tv/channels date=2026-11-24 ${skip}`);
    expect(calls).toEqual([...round, ...round, ...pages]);
    expect(result).toMatchObject({ requests: 9, failed: 0 });
    const onlyPages: string[] = [];
    await warmUp(addonLogging(onlyPages), { rounds: 0, now: NOW });
    expect(onlyPages).toEqual(pages);
    const few: string[] = [];
    await warmUp(addonLogging(few), { rounds: 1, now: NOW, guidePages: 2 });
    expect(few).toEqual([...round, 'tv/channels date=2026-11-24 skip=100']);
  });

  it('counts a throwing handler as failed and goes on; an aborted warm-up stops between requests', async () => {
    const calls: string[] = [];
    const result = await warmUp(addonLogging(calls, true), { rounds: 1, now: NOW, guidePages: 1 });
    expect(result).toMatchObject({ requests: 3, failed: 1 });

    const controller = new AbortController();
    const stopped: string[] = [];
    const pending = warmUp(addonLogging(stopped), { rounds: 5, now: NOW, signal: controller.signal });
    controller.abort();
    expect((await pending).requests).toBe(0);
    expect(stopped).toEqual([]);
  });

  it('lets other work run between its requests', async () => {
    const order: string[] = [];
    const addon = addonLogging(order);
    const warming = warmUp(addon, { rounds: 1, now: NOW });
    setImmediate(() => order.push('other work'));
    await warming;
    expect(order.indexOf('other work')).toBeGreaterThan(-1);
    expect(order.indexOf('other work')).toBeLessThan(order.length - 1);
  });
});
