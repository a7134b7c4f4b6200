import { describe, expect, it } from 'vitest';
import { readLibrary } from './index.js';

const example = new URL('../../../examples/library/library.json', import.meta.url).pathname;

describe('examples/library/library.json', () => {
  it('reads with no warnings: 8 movies and 2 series with episodes', async () => {
    const { items, warnings } = await readLibrary(example);
    expect(warnings).toEqual([]);
    expect(items.filter((i) => i.type === 'movie')).toHaveLength(8);
    const series = items.filter((i) => i.type === 'series');
    expect(series.map((s) => [s.id, s.videos.map((v) => v.id)])).toEqual([
      [
        'mq:series-caminandes-2013',
        ['mq:series-caminandes-2013:1:1', 'mq:series-caminandes-2013:1:2', 'mq:series-caminandes-2013:1:3'],
      ],
      ['mq:series-agent-327-2017', ['mq:series-agent-327-2017:1:1']],
    ]);
  });

  it('keeps IMDb ids, generates the others, and gives Sintel its subtitles', async () => {
    const { items } = await readLibrary(example);
    expect(items.map((i) => i.id).slice(0, 6)).toEqual([
      'tt1254207',
      'tt0807840',
      'tt1727587',
      'tt2285752',
      'mq:movie-cosmos-laundromat-2015',
      'mq:movie-spring-2019',
    ]);
    const sintel = items.find((i) => i.name === 'Sintel')!;
    expect(sintel.subtitles.map((s) => [s.id, s.lang])).toEqual([
      ['eng-1', 'eng'],
      ['spa-1', 'spa'],
      ['fre-1', 'fre'],
    ]);
    for (const item of items) {
      expect(item.released).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      expect(item.streams.length + item.videos.length).toBeGreaterThan(0);
    }
  });
});
