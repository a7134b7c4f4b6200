import { describe, expect, it } from 'vitest';
import { baseId, GuideIndex, MatchDemand, type MatchSubject, matchName } from './match.js';

const guide = new GuideIndex();
for (const [id, names] of [
  ['BBCOne.uk', ['BBC One']],
  ['BBCOne.uk@SD', ['BBC One SD']],
  ['CNN.us@East', ['CNN International']],
  ['daserste.de', ['ARD Das Erste', 'Das Erste']],
  ['etoile.fr', ['TELE-ETOILE']],
  ['regional.tv', ['Regional']],
] as const) {
  guide.add({ id, displayNames: names.map((text) => ({ text })) });
}
const none = new Map<string, string>();
const subject = (s: Partial<MatchSubject>): MatchSubject => ({ name: 'Unknown', shiftHours: 0, ...s });

describe('matchName and baseId', () => {
  it('ignore case, accents, punctuation and quality suffixes', () => {
    expect(matchName('Télé-Étoile FHD')).toBe('teleetoile');
    expect(matchName('TELE ETOILE 4K HD')).toBe('teleetoile');
    expect(matchName('Rock & Roll TV')).toBe(matchName('rock and roll tv'));
    expect(matchName('HD')).toBe('hd');
    expect(baseId('BBCOne.uk@HD')).toBe('bbcone.uk');
    expect(baseId('@x')).toBe('@x');
  });
});

describe('GuideIndex.resolve', () => {
  it.each([
    ['an exact tvg-id', { tvgId: 'BBCOne.uk' }, 'BBCOne.uk', 'tvgId'],
    ['a tvg-id in another case', { tvgId: 'bbcone.UK' }, 'BBCOne.uk', 'tvgId'],
    ['a tvg-id with a feed the guide lacks', { tvgId: 'BBCOne.uk@HD' }, 'BBCOne.uk', 'feed'],
    ['a feed-less tvg-id against a feed id', { tvgId: 'CNN.us' }, 'CNN.us@East', 'feed'],
    ['a tvg-name equal to a display-name', { tvgName: 'ard das erste' }, 'daserste.de', 'displayName'],
    ['a name equal to a second display-name', { name: 'Das Erste' }, 'daserste.de', 'displayName'],
    ['a name equal once normalised', { name: 'Télé Étoile HD' }, 'etoile.fr', 'normalizedName'],
  ])('matches %s', (_what, s, key, rule) => {
    expect(guide.resolve(subject(s), none)).toEqual({ key, rule });
  });

  it('prefers the override, then the tvg-id, over names', () => {
    const overrides = new Map([['My Local', 'regional.tv']]);
    expect(guide.resolve(subject({ name: 'My Local', tvgId: 'BBCOne.uk' }), overrides)).toEqual({
      key: 'regional.tv',
      rule: 'override',
    });
    expect(guide.resolve(subject({ name: 'Das Erste', tvgId: 'BBCOne.uk' }), none)?.rule).toBe('tvgId');
  });

  it('tells guide channels of one name apart by how many of their names fit, or leaves them for review', () => {
    const index = new GuideIndex();
    const add = (id: string, ...names: string[]) => index.add({ id, displayNames: names.map((text) => ({ text })) });
    // Real names of the matching corpus (us): three names of A&E's own against one of five.
    add('ae.lat', 'A&E', 'E! Entertainment', 'Canal A&E (Chile)', 'Canal A&E (México)', 'Canal A&E (Panregional)');
    add('ae.us', 'A&E', 'A&E East', 'A&E West');
    expect(index.resolve(subject({ name: 'A&E (720p)' }), none)).toEqual({ key: 'ae.us', rule: 'normalizedName' });
    // Nothing tells these apart: no guess, both listed.
    add('toongoggles.us', 'Toon Goggles');
    add('toongogglesplus.us', 'Toon Goggles');
    expect(index.resolve(subject({ name: 'Toon Goggles (720p)' }), none)).toEqual({
      candidates: [
        { id: 'toongoggles.us', score: 1 },
        { id: 'toongogglesplus.us', score: 1 },
      ],
    });
    // Ids that differ by a quality tag name one channel written twice: either is right.
    add('DasErste.de', 'Das Erste');
    add('DasErsteHD.de', 'Das Erste HD');
    expect(index.resolve(subject({ name: 'DE: Das Erste FHD' }), none)).toEqual({
      key: 'DasErste.de',
      rule: 'normalizedName',
    });
  });

  it('leaves a channel no rule finds unmatched', () => {
    expect(guide.resolve(subject({ name: 'Shop TV', tvgId: 'shop.xx' }), none)).toEqual({});
  });
});

describe('MatchDemand', () => {
  const demand = new MatchDemand(
    [
      subject({ name: 'Arte', tvgId: 'arte.fr' }),
      subject({ name: 'Arte +1', tvgId: 'arte.fr', shiftHours: 1 }),
      subject({ name: 'Das Erste' }),
      subject({ name: 'My Local' }),
    ],
    new Map([['My Local', 'regional.tv']]),
  );

  it('tells which guide channels are wanted, with which shifts', () => {
    expect([...demand.shiftsFor('arte.fr')].sort()).toEqual([0, 1]);
    expect([...demand.shiftsFor('ARTE.fr@HD')].sort()).toEqual([0, 1]);
    expect([...demand.shiftsFor('daserste.de', ['ARD', 'Das Erste'])]).toEqual([0]);
    expect([...demand.shiftsFor('regional.tv')]).toEqual([0]);
    expect(demand.shiftsFor('unused.zz', ['Nobody']).size).toBe(0);
  });

  it('wants a guide channel whose display name is a channel name in another case or spacing', () => {
    const exact = new MatchDemand(
      [
        subject({ name: '  Canal Nueve ', tvgId: 'nine.zz' }),
        subject({ name: 'CANAL NUEVE', tvgId: 'other.zz', shiftHours: -2 }),
        subject({ name: 'Kanal Elf', tvgId: 'elf.zz' }),
      ],
      new Map(),
      { scored: false, threshold: 0.85, margin: 0.1, decoration: false },
    );
    expect([...exact.shiftsFor('canal9.xx', ['canal nueve'])].sort()).toEqual([-2, 0]);
    expect([...exact.shiftsFor('elf.xx', ['Kanal  Elf', 'KANAL ELF'])]).toEqual([0]);
    expect(exact.shiftsFor('zwoelf.xx', ['Kanal Zwoelf']).size).toBe(0);
    expect(exact.shiftsFor('blank.xx', ['   ']).size).toBe(0);
  });
});
