import { describe, expect, it } from 'vitest';
import { Decoration } from './decoration.js';
import { formOf } from './form.js';
import { guideWords } from './guide-words.js';

/** A decoration learned from `names`. */
function learn(names: readonly string[]): Decoration {
  const d = new Decoration();
  for (const name of names) d.addName(name);
  return d;
}

/** What a guide whose channels are named `names` says of words (one channel per name). */
function guide(names: readonly string[]) {
  const forms = names.map((n) => formOf(n));
  return guideWords(forms.length, (c) => [forms[c]!], forms);
}

const CHANNELS = ['CBC News Network', 'CTV', 'Global', 'TSN 1', 'Sportsnet One', 'Treehouse', 'History', 'Crave 1'];

describe('Decoration: what a playlist writes around its names, learned from them', () => {
  it('learns a code written with no mark, a label after the tags and bare resolutions', () => {
    const names = CHANNELS.flatMap((c, i) => [`CA ${c} 1080`, `CA ${c} HEVC NFT`, `CA ${c} ${i % 2 ? '720' : 'NFT'}`]);
    const d = learn(names);
    const candidate = d.candidate()!;
    expect([...candidate.lead]).toEqual(['ca']);
    expect([...candidate.trail]).toEqual(['nft']);
    expect(candidate.numbers).toBe(true);
    const learned = d.confirm(guide(CHANNELS))!;
    expect([...learned.lead]).toEqual(['ca']);
    expect([...learned.trail]).toEqual(['nft']);
    expect(formOf('CA CBC News Network 1080', undefined, { learned }).key).toBe(formOf('CBC News Network').key);
    expect(formOf('CA CTV HEVC NFT', undefined, { learned }).key).toBe(formOf('CTV').key);
    expect(d.report()).toMatchObject({
      names: names.length,
      learned: { leading: ['ca'], trailing: ['nft'], bareResolutions: true, numbering: false },
    });
  });

  it('keeps a word the guides name channels with: a brand before many names is no prefix', () => {
    const names = ['BBC ◉ One', 'BBC ◉ Two', 'BBC ◉ Four', 'BBC ◉ News', 'BBC ◉ Parliament', 'ITV ◉ 1'];
    const d = learn(names);
    expect([...d.candidate()!.lead]).toEqual(['bbc']);
    const learned = d.confirm(guide(['BBC One', 'BBC Two', 'BBC Four', 'BBC News', 'ITV 1', 'Dave', 'Gold']));
    expect(learned?.lead.size ?? 0).toBe(0);
  });

  it('never takes a word that ends many names but never stands where tags do (`… Radio`)', () => {
    const names = ['Arirang Radio', 'KBS Radio 1', 'MBC Radio', 'SBS Radio HD', 'EBS Radio', 'Arirang TV', 'KBS 1'];
    const d = learn(names);
    expect(d.candidate()?.trail.has('radio') ?? false).toBe(false);
  });

  it('learns a playlist that numbers its names (`101 | …`)', () => {
    const d = learn(CHANNELS.map((c, i) => `${101 + i} | ${c}`));
    const learned = d.confirm(guide(CHANNELS))!;
    expect(learned.numbered).toBe(true);
    expect(formOf('104 | TSN 1', undefined, { learned }).key).toBe(formOf('TSN 1').key);
  });

  it('keeps a bare number the guides hold as a word (`TV 1000`)', () => {
    const d = learn([...CHANNELS.map((c) => `${c} 1080`), 'TV 1000']);
    const learned = d.confirm(guide([...CHANNELS, 'TV 1000']))!;
    expect(learned.numbers).toBe(true);
    expect(learned.dropsNumber?.('1080')).toBe(true);
    expect(learned.dropsNumber?.('1000')).toBe(false);
  });

  it('learns nothing from a playlist that writes nothing around its names', () => {
    const d = learn(CHANNELS);
    expect(d.candidate()).toBeUndefined();
    expect(d.report()).toBeUndefined();
  });

  it('reports the prefixes and tags it writes, by shape', () => {
    const d = learn(CHANNELS.flatMap((c, i) => [`◉ CA ${c} ${1000 + i}p`, `◉ CA ${c} ᴿᵀᴷ`]));
    const report = d.report()!;
    expect(report.prefixes).toEqual([{ text: '◉ CA', names: 16 }]);
    expect(report.country).toBe('ca');
    expect(report.tags).toContainEqual({ text: '####p', names: 8 });
    expect(report.tags).toContainEqual({ text: 'ᴿᵀᴷ', names: 8 });
  });
});
