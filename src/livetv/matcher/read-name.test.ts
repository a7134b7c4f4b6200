import { describe, expect, it } from 'vitest';
import { countryOf } from './countries.js';
import { formOf, loose } from './form.js';
import { readName } from './read-name.js';

const tokens = (name: string) => readName(name).tokens.join(' ');

describe('readName: what identifies a channel and what does not', () => {
  it.each([
    // Real names of the matching corpus, as iptv-org writes them and as panels do.
    ['CBBC HD (1080p) (HEVC) [Geo-blocked]', 'cbbc'],
    ['|UK| CBBC FHD', 'cbbc'],
    ['Action 24 (1080p) [Not 24/7]', 'action 24'],
    ['[GR] Action 24', 'action 24'],
    ['AE ● Al Arabiya Programs FHD 50FPS', 'al arabiya programs'],
    ['US - ABN Afghanistan', 'abn afghanistan'],
    ['GR| Acheloos TV HEVC', 'acheloos tv'],
    ['|GR| Astra TV ᴴᴰ', 'astra tv'],
    ['ABC WEST HD+', 'abc west'],
    ['[RU] .RED HD', 'red'],
    ['2x2 SD HEVC', '2 x 2'],
    ['Novasports5HD', 'novasports 5'],
    ['TV5MONDE', 'tv 5 monde'],
    ['&xplor HD (1080p)', 'andxplor'],
    ['BFM Nice Côte d’Azur (1080p)', 'bfm nice cote dazur'],
    // Prefixes and tags the dev set does not use.
    ['DE ★ ProSieben', 'prosieben'],
    ['FR | TF1 UHD 4K', 'tf 1'],
    ['USA: ABC', 'abc'],
    ['EX-YU: RTS 1 1080p50', 'rts 1'],
    ['bbc one scotland ʰᵈ', 'bbc 1 scotland'],
    ['|US|  CNN   VIP  RAW', 'cnn'],
    ['History (Backup)', 'history'],
    ['Das Erste H.265', 'das erste'],
    // A country's code glued by a hyphen, in capitals; names that glue a code as a word keep it.
    ['UK-BBC ONE FHD', 'bbc 1'],
    ['DE-ZDF HD', 'zdf'],
    ['RU-TV', 'ru tv'],
    ['AL-JAZEERA', 'al jazeera'],
    ['HI-YAH! (1080p)', 'hi yah'],
    ['YU-GI-OH!', 'yu gi oh'],
    ['TV-3', 'tv 3'],
    // Small capitals, other separators, a note with its number, a duplicate's number.
    ['BBC One ʜᴅ', 'bbc 1'],
    ['BBC One ꜰʜᴅ ʀᴀᴡ', 'bbc 1'],
    ['UK ~ BBC One', 'bbc 1'],
    ['UK >> BBC One', 'bbc 1'],
    ['US ▎ESPN', 'espn'],
    ['UK |BBC One', 'bbc 1'],
    ['BBC One (Backup 2)', 'bbc 1'],
    ['BBC One HD #2', 'bbc 1'],
    ['Channel 4 (Source 1)', 'channel 4'],
    ['Россия 24 (Благовещенск)', 'rossiya 24 blagoveshchensk'],
    // A bar with no spaces, a language's three-letter code, a resolution after its quality word.
    ['UK|BBC One', 'bbc 1'],
    ['ENG: BBC One', 'bbc 1'],
    ['GER | Das Erste', 'das erste'],
    ['BBC ONE HD 1080', 'bbc 1'],
    ['Kanal 720', 'kanal 720'],
    // Issue 45: by shape, marks and tags no rule names. A code anywhere in the leading run of marks.
    ['◉ CA CBC News Network FHD', 'cbc news network'],
    ['CA ★ CBC News Network FHD', 'cbc news network'],
    ['⟦CA⟧ CBC News Network', 'cbc news network'],
    ['CA◉CBC News Network', 'cbc news network'],
    ['◉ CA ◉ CBC News Network', 'cbc news network'],
    ['🇨🇦 CBC News Network', 'cbc news network'],
    ['CBC News Network ▹ ca', 'cbc news network'],
    ['ca ⥌ cbc news network', 'cbc news network'],
    // Codecs with any one character, frame rates, tags in brackets of any kind.
    ['TRT Haber H 265', 'trt haber'],
    ['TRT Haber h_264', 'trt haber'],
    ['TRT Haber x-265 HEVC', 'trt haber'],
    ['CBC News ⟦60 FPS⟧ 【UHD】', 'cbc news'],
    // Superscripts and small capitals beside plain letters are tags; a name written in them is a name.
    ['CBC ᴿᵀᴷ', 'cbc'],
    ['HBOᴴᴰ', 'hbo'],
    ['ʙʙᴄ ᴏɴᴇ', 'bbc 1'],
    ['ʙʙᴄ ᴏɴᴇ ʜᴅ', 'bbc 1'],
    ['ʙʙᴄ ᴏɴᴇ NFT', 'bbc 1'],
    ['(BR) ᴛᴠ ᴀᴘᴀʀᴇᴄɪᴅᴀ', 'tv aparecida'],
    ['２ｘ２ ＨＤ', '2 x 2'],
    // What the shapes leave as it is: a code with no mark beside it, a word that ends with `!`,
    // a bracket that opens, a state after a comma, a number that names a channel.
    ['UK Gold', 'uk gold'],
    ['★ La 1 HD', 'la 1'],
    ['AE ● Al Arabiya', 'al arabiya'],
    ['Yo! MTV', 'yo mtv'],
    ['TN (1080p)', 'tn'],
    ['CBS (KKTV) Colorado Springs, CO', 'cbs kktv colorado springs co'],
    ['Canal+ Sport 360', 'canal + sport 360'],
    ['TR - TRT HABER 1080', 'trt haber 1080'],
    ['Proﬁle TV', 'profile tv'],
    ['2х2 ᴴᴰ', '2 kh 2'],
  ])('%s → %s', (name, expected) => {
    expect(tokens(name)).toBe(expected);
  });

  it('reads a name as its playlist writes them: learned words, bare resolutions, numbering', () => {
    const learned = { lead: new Set(['ca']), trail: new Set(['nft']), numbers: true, numbered: true };
    expect(tokens('TR - TRT HABER 1080')).toBe('trt haber 1080');
    expect(readName('TR - TRT HABER 1080', { learned }).tokens.join(' ')).toBe('trt haber');
    expect(readName('CA CBC News Network NFT', { learned })).toMatchObject({
      tokens: ['cbc', 'news', 'network'],
      country: 'ca',
    });
    expect(readName('101 | CA CBC News Network 1080 [NFT]', { learned }).tokens.join(' ')).toBe('cbc news network');
    // Only the last bare number, and not one the guides' names hold as a word.
    expect(readName('TV 1000 720', { learned }).tokens.join(' ')).toBe('tv 1000');
    const keeps = { ...learned, dropsNumber: (n: string) => n !== '1000' };
    expect(readName('TV 1000', { learned: keeps }).tokens.join(' ')).toBe('tv 1000');
  });

  it('reads a time shift in brackets as one written plainly', () => {
    expect(readName('ITV 1 (+1)')).toMatchObject({ tokens: ['itv', '1'], shift: 1 });
    expect(readName('Arte (+1h)')).toMatchObject({ tokens: ['arte'], shift: 1 });
    // A bracket that says more than the shift stays a bracket.
    expect(readName('Arte (+1 Paris)').shift).toBe(0);
  });

  it('takes the country of a prefix or a bracket as a hint', () => {
    expect(readName('|UK| BBC One').country).toBe('uk');
    expect(readName('US ● ABN Bible Movies').country).toBe('us');
    expect(readName('AR: Al Jazeera').country).toBe('ar');
    expect(readName('World Poker Tour (EN)').country).toBe('en');
    // `Al-Jazeera` is a name: a code needs a separator and a space, or brackets.
    expect(readName('Al-Jazeera').country).toBeUndefined();
    expect(readName('UK-BBC ONE').country).toBe('uk');
    expect(readName('RU-TV').country).toBeUndefined();
    expect(readName('UK|BBC One').country).toBe('uk');
    // A language's code is set aside, but says no country.
    expect(readName('ENG: BBC One').country).toBeUndefined();
    expect(countryOf('UK | Entertainment')).toBe('uk');
    expect(countryOf('◉ CA ◉ News')).toBe('ca');
    expect(countryOf('CANADA')).toBe('ca');
    expect(countryOf('Deutschland | Sport')).toBe('de');
    expect(countryOf('United Kingdom HD')).toBe('uk');
    expect(countryOf('🇨🇦')).toBe('ca');
    expect(countryOf('USA')).toBe('usa');
    expect(countryOf('Sport')).toBeUndefined();
  });

  it('keeps numbers, `+` and time shifts as marks that must agree', () => {
    expect(formOf('Fox Sports 1').marks).not.toBe(formOf('Fox Sports 2').marks);
    expect(formOf('ATV').marks).not.toBe(formOf('ATV +').marks);
    expect(formOf('ATV+').key).toBe(formOf('ATV +').key);
    // A number is its value, however written; several are sorted.
    expect(formOf('Channel 024').marks).toBe('24');
    expect(formOf('Channel 123456').marks).toBe('123456');
    expect(formOf('Sport 02 Extra 10').marks).toBe(formOf('Sport 10 Extra 2').marks);
    expect(readName('НТВ +4').shift).toBe(4);
    expect(readName('Arte +1').shift).toBe(1);
    expect(formOf('Arte +1').key).not.toBe(formOf('Arte 1').key);
    expect(readName('Canal+').shift).toBe(0);
    expect(tokens('12 канал')).toBe('12 kanal');
  });

  it('transliterates Cyrillic and Greek, so both spellings read alike', () => {
    expect(formOf('Россия 24').key).toBe(formOf('Rossiya 24').key);
    expect(tokens('Суббота!')).toBe('subbota');
    expect(tokens('Охота и рыбалка')).toBe('okhota i rybalka');
    expect(tokens('ΣΚΑΪ')).toBe('skai');
  });

  it('spells transliterations loosely alike, as the corpus writes them', () => {
    const same = (a: string, b: string) =>
      formOf(a).tokens.map(loose).join(' ') === formOf(b).tokens.map(loose).join(' ');
    for (const [latin, cyrillic] of [
      ['Kinopremyera', 'Кинопремьера'],
      ['Kluch', 'Ключ'],
      ['Solnce', 'СОЛНЦЕ'],
      ['TV Centr', 'ТВ Центр'],
      ['Ostrosyuzhetnoye', 'Остросюжетное'],
      ['Indiyskoye Kino', 'Индийское кино'],
      ['Kinokomedija', 'Кинокомедия'],
      ['Dikij', 'Дикий'],
    ]) {
      expect(same(latin!, cyrillic!), `${latin} / ${cyrillic}`).toBe(true);
    }
    // Short words are never loose: `CBS` is not `KBS`.
    expect(loose('cbs')).toBe('');
  });

  it('keeps what brackets say about a region, and drops notes and tags in them', () => {
    expect(tokens('Россия 24 (Благовещенск)')).toBe('rossiya 24 blagoveshchensk');
    expect(readName('Россия 24 (Благовещенск)').bracketed).toEqual([false, false, true]);
    expect(tokens('Sky News Arabia (Portrait) (1280p) [Not 24/7]')).toBe('sky news arabia portrait');
  });

  it('reads ordinals, `plus` and words for "channel" in other languages alike', () => {
    expect(tokens('Первый канал')).toBe('1 kanal');
    expect(tokens('Пятый канал')).toBe(tokens('5 Канал'));
    expect(formOf('Canal Plus').key).toBe(formOf('Canal+').key);
    expect(formOf('Феникс плюс Кино').key).toBe(formOf('Феникс+Кино').key);
    for (const word of ['Channel', 'канал', 'Kanał', 'ช่อง']) expect(loose(readName(word).tokens[0]!)).toBe('channel');
  });

  it('reads `&` and number words', () => {
    expect(formOf('A&E').key).toBe('ae');
    expect(formOf('Rock & Roll TV').key).toBe(formOf('rock and roll tv').key);
    expect(formOf('BBC One').key).toBe(formOf('BBC 1 HD').key);
    // A name of tags only is kept as it is, not emptied.
    expect(tokens('HD')).toBe('hd');
  });
});
