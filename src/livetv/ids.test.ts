import { describe, expect, it } from 'vitest';
import { assignChannelIds, slugify } from './ids.js';

describe('slugify', () => {
  it.each([
    ['BBC One HD', 'bbc-one-hd'],
    ['BBCOne.uk@HD', 'bbcone.uk-hd'],
    ['Télé Étoile', 'tele-etoile'],
    ['Первый канал', 'первый-канал'],
    ['  --News & Talk!! ', 'news-talk'],
    ['+++', ''],
  ])('%s → %s', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it('bounds the length', () => {
    expect(slugify('a'.repeat(500))).toHaveLength(80);
  });
});

describe('assignChannelIds', () => {
  it('gives plain slugs when they are unique', () => {
    expect(
      assignChannelIds([
        { kind: 'tvg-id', value: 'bbc1.uk' },
        { kind: 'name', value: 'das erste' },
      ]),
    ).toEqual(['mq-tv:bbc1.uk', 'mq-tv:das-erste']);
  });

  it('resolves collisions the same way whatever the order: tvg-id first, then the smallest key', () => {
    const a = { kind: 'name', value: 'arte fr' } as const;
    const b = { kind: 'tvg-id', value: 'arte-fr' } as const;
    const c = { kind: 'tvg-id', value: 'arte.fr' } as const;
    const d = { kind: 'name', value: 'arte-fr' } as const;
    const one = assignChannelIds([a, b, d]);
    const two = assignChannelIds([d, b, a]);
    expect(one[1]).toBe('mq-tv:arte-fr');
    expect(one[0]).toMatch(/^mq-tv:arte-fr-[0-9a-z]{6}$/);
    expect(one[2]).toMatch(/^mq-tv:arte-fr-[0-9a-z]{6}$/);
    expect(new Set(one).size).toBe(3);
    expect([two[2], two[1], two[0]]).toEqual(one);
    expect(assignChannelIds([c])).toEqual(['mq-tv:arte.fr']);
  });

  it('hashes keys whose slug is empty', () => {
    const ids = assignChannelIds([
      { kind: 'name', value: '+++' },
      { kind: 'name', value: '***' },
    ]);
    expect(ids[0]).toMatch(/^mq-tv:ch-[0-9a-z]{6}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });
});
