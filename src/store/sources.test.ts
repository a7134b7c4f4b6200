import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copiesDir, sourceKey } from './sources.js';
import type { Store } from './store.js';
import { useTempStore } from './testing.js';

let store: Store;
useTempStore((s) => {
  store = s;
});

const attempt = (label: string, outcome: 'imported' | 'kept' | 'none', copy?: Buffer) => ({
  key: sourceKey('guide', label),
  kind: 'guide',
  label,
  outcome,
  ...(outcome === 'imported' ? { counts: { programmes: 3 } } : { reason: 'failed: HTTP 503' }),
  ...(copy ? { copy: [copy] } : {}),
});

describe('source states', () => {
  it('keys hold no credentials', () => {
    expect(sourceKey('guide', 'https://user:secret@x.example/epg.xml')).not.toMatch(/secret|user/);
    expect(sourceKey('guide', 'a')).not.toBe(sourceKey('playlist', 'a'));
  });

  it('keep the last good counts and copy across bad attempts, with the start of the bad run', async () => {
    const copy = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await store.recordSourceAttempts('livetv', [attempt('g1', 'imported')]);
    const imp = await store.beginLiveTvImport();
    imp.addChannel({ id: 'c', name: 'C', sort: 0, streams: [{ url: 'http://x/c' }] });
    imp.commit({ sources: [attempt('g1', 'imported', copy)] });
    const good = store.sourceStates('livetv')[0]!;
    expect(good).toMatchObject({
      label: 'g1',
      outcome: 'imported',
      goodCounts: { programmes: 3 },
      copyBytes: copy.length,
    });
    expect(Buffer.concat([...store.sourceCopy(good.key)]).equals(copy)).toBe(true);

    await store.recordSourceAttempts('livetv', [attempt('g1', 'kept')]);
    const kept = store.sourceStates('livetv')[0]!;
    expect(kept).toMatchObject({
      outcome: 'kept',
      reason: 'failed: HTTP 503',
      goodAt: good.goodAt,
      copyBytes: copy.length,
    });
    expect(kept.keptSince).toBeTypeOf('number');
    await new Promise((r) => setTimeout(r, 5));
    await store.recordSourceAttempts('livetv', [attempt('g1', 'kept')]);
    expect(store.sourceStates('livetv')[0]!.keptSince).toBe(kept.keptSince);
    expect(Buffer.concat([...store.sourceCopy(good.key)]).equals(copy)).toBe(true);
  });

  it('drop the states and copies of sources no longer configured when an import commits', async () => {
    const imp = await store.beginLiveTvImport();
    imp.addChannel({ id: 'c', name: 'C', sort: 0, streams: [{ url: 'http://x/c' }] });
    imp.commit({
      sources: [attempt('g1', 'imported', Buffer.from('one')), attempt('g2', 'imported', Buffer.from('two'))],
    });
    const next = await store.beginLiveTvImport();
    next.addChannel({ id: 'c', name: 'C', sort: 0, streams: [{ url: 'http://x/c' }] });
    next.commit({ sources: [attempt('g2', 'imported', Buffer.from('two'))] });
    expect(store.sourceStates().map((s) => s.label)).toEqual(['g2']);
    expect([...store.sourceCopy(sourceKey('guide', 'g1'))]).toEqual([]);
    // One file: g1's went with its state, g2's first copy was replaced.
    expect(readdirSync(copiesDir(store.file)).filter((f) => f.endsWith('.copy'))).toHaveLength(1);
  });

  it('refuse a damaged copy, naming the source, and no longer count it as one', async () => {
    const imp = await store.beginLiveTvImport();
    imp.addChannel({ id: 'c', name: 'C', sort: 0, streams: [{ url: 'http://x/c' }] });
    imp.commit({ sources: [attempt('g1', 'imported', Buffer.from('the guide'))] });
    const [state] = store.sourceStates('livetv');
    expect(state?.copyBytes).toBe(9);
    const [file] = readdirSync(copiesDir(store.file)).filter((f) => f.endsWith('.copy'));
    writeFileSync(join(copiesDir(store.file), file!), 'cut');
    expect(store.sourceStates('livetv')[0]?.copyBytes).toBeUndefined();
    expect(() => [...store.sourceCopy(sourceKey('guide', 'g1'))]).toThrow(
      /stored copy of source guide:.* is missing or damaged/,
    );
  });
});
