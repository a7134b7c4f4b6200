import { describe, expect, it } from 'vitest';
import { catalogLists } from './catalog-pages.js';

describe('catalogLists', () => {
  it('starts from the feed and from every option of every extra with options', () => {
    const catalog = {
      type: 'movie',
      id: 'top',
      name: 'Top',
      extra: [
        { name: 'genre', options: ['Drama', 'Rock & Roll'] },
        { name: 'year', options: ['2024'] },
        { name: 'search' },
        { name: 'skip' },
      ],
    };
    expect(catalogLists(catalog)).toEqual([[], [['genre', 'Drama']], [['genre', 'Rock & Roll']], [['year', '2024']]]);
  });

  it('leaves the feed out when an extra is required, as the client does', () => {
    const catalog = {
      type: 'movie',
      id: 'top',
      name: 'Top',
      extra: [{ name: 'genre', isRequired: true, options: ['A'] }],
    };
    expect(catalogLists(catalog)).toEqual([[['genre', 'A']]]);
  });

  it('says why the client cannot open a catalog', () => {
    const two = {
      type: 'movie',
      id: 'x',
      name: 'X',
      extra: [
        { name: 'a', isRequired: true },
        { name: 'b', isRequired: true },
      ],
    };
    expect(catalogLists(two)).toEqual({ unreachable: 'it requires 2 extras; the client ignores it' });
    const noOptions = { type: 'movie', id: 'x', name: 'X', extra: [{ name: 'year', isRequired: true }] };
    expect(catalogLists(noOptions)).toEqual({
      unreachable: 'its required extra "year" has no options, so the client offers no way to open it',
    });
  });

  it('reaches a guide catalog that requires its date through its days only', () => {
    const guide = { type: 'tv', id: 'g', name: 'G', extra: [{ name: 'date', isRequired: true }, { name: 'skip' }] };
    expect(catalogLists(guide)).toEqual([]);
  });
});
