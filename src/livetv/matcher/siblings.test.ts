/**
 * Siblings never win, on real names: the matching corpus (MARQUEE_CORPUS's matching/, every name
 * 561 guide sites give 7,907 channels of 33 countries) read through the real GuideIndex. A
 * playlist channel named as one guide channel, in a panel's style, must never get a sibling:
 * another number (`Fox Sports 1` / `Fox Sports 2`, `12 канал` / `8 канал`), another time shift
 * (`Sky Atlantic` / `Sky Atlantic +1`), another region (`Россия 24 (Благовещенск)` /
 * `Россия 1 HD`, a channel and its regional variant), or a look-alike (`RTG TV` / `RT TV`,
 * `Ace TV` / `A&E`).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { corpusDir, corpusFile, describeCorpus } from '../../../test/helpers/corpus.js';
import { GuideIndex, type MatchSubject } from '../match.js';
import { formOf } from './form.js';

interface Country {
  readonly guide: [string, string[]][];
  readonly entries: [string, string[], string, string | null, string, string][];
}
// The labelled set is corpus-wide data (test/helpers/corpus.ts): without MARQUEE_CORPUS these tests are skipped.
const corpus = (
  corpusDir() === undefined
    ? { countries: {} }
    : JSON.parse(gunzipSync(readFileSync(corpusFile('matching', 'dev.json.gz'))).toString('utf8'))
) as { countries: Record<string, Country> };

const none = new Map<string, string | null>();
const subject = (name: string): MatchSubject => ({ name, shiftHours: 0 });

function guideOf(cc: string, keep: (i: number) => boolean = () => true) {
  const index = new GuideIndex();
  const names = new Map<string, string[]>();
  for (const [i, [id, list]] of corpus.countries[cc]!.guide.entries()) {
    if (!keep(i)) continue;
    index.add({ id, displayNames: list.map((text) => ({ text })) });
    names.set(id, list);
  }
  return { index, names };
}

/** The guide channel `name` resolves to, in every style a playlist writes it. */
function resolved(index: GuideIndex, cc: string, name: string): (string | undefined)[] {
  const styles = [name, `|${cc.toUpperCase()}| ${name} FHD`, `${cc.toUpperCase()}: ${name.toUpperCase()} (1080p)`];
  return styles.map((s) => index.resolve(subject(s), none).key);
}

describeCorpus('look-alikes and siblings the fuzzy matcher took, as the corpus has them', () => {
  it('a word for "television" is one word however it is spelled', () => {
    expect(resolved(guideOf('lt').index, 'lt', 'LRT TV (1080p)')).toEqual(['g1', 'g1', 'g1']);
    expect(resolved(guideOf('ru').index, 'ru', 'Шансон ТВ')).toEqual(['g220', 'g220', 'g220']);
  });

  it('a brand name and a name word more is a sibling of the brand, a place word more a feed of it', () => {
    const italy = guideOf('it').index;
    // `RTL 102.5` (g3) is the radio's own channel; its themed siblings have no guide channel here.
    for (const name of ['RTL 102.5 Best (1080p)', 'RTL 102.5 Disco (1080p)', 'RTL 102.5 Traffic (1080p)'])
      expect(resolved(italy, 'it', name)).toEqual([undefined, undefined, undefined]);
    expect(resolved(italy, 'it', 'RTL 102.5 (1080p)')).toEqual(['g3', 'g3', 'g3']);
    const us = guideOf('us').index;
    expect(resolved(us, 'us', 'EWTN Asia-Pacific (720p)')).toEqual(['g1010', 'g1010', 'g1010']);
  });

  it.each([
    ['ru', 'RTG TV (576p)', 'g340', ['g233']], // RT TV
    ['ru', 'RTG TV HD (1080p)', 'g340', ['g233']],
    ['ru', '12 канал (1080p)', undefined, ['g241']], // 8 канал
    ['us', 'Ace TV (480p)', undefined, ['g1803', 'g2638']], // A&E
    ['ru', 'Россия 24 (Благовещенск) (576p)', 'g289', ['g120']], // Россия 1 HD
    ['ru', 'Россия 24 (Астрахань) (576p)', 'g289', ['g206']], // Астрахань 24, a channel of its own
    ['us', 'Fox Sports 1 (720p)', 'g453', ['g158', 'g1932']], // Fox Sports 2
    ['us', 'Fox Sports 2 (720p)', undefined, ['g453']],
    ['be', 'ATV (1080p)', 'g12', []],
    // A number and a word for "channel" in another language: the number names it, and only it.
    ['ru', 'Channel 8 (576p)', 'g241', ['g386']], // 8 канал, never Пятый канал
    ['ru', 'Channel One (576p)', 'g189', []], // Первый канал
    ['th', 'Channel 8 (1080p)', 'g7', []], // ช่อง 8
    // A word for "television" is one in any spelling, but never what names a numbered channel.
    ['it', 'Canale 8 (480p)', undefined, ['g15']], // TV8
    ['lt', 'LRT TV (1080p)', 'g1', ['g2']], // LRT Televizija, never Lietuvos ryto TV
    ['ru', 'Шансон ТВ (576p)', 'g220', []], // Шансон-TB
  ])('%s "%s" gets %s, never %j', (cc, name, truth, never) => {
    const { index } = guideOf(cc);
    for (const key of resolved(index, cc, name)) {
      if (truth !== undefined && key !== undefined) expect([truth, key]).toContain(key);
      expect(never).not.toContain(key);
    }
  });

  it('tells ATV from ATV + and Arte from Arte +1 whichever the guide lists first', () => {
    for (const order of [
      ['atv', 'atvplus'],
      ['atvplus', 'atv'],
    ]) {
      const index = new GuideIndex();
      for (const id of order) index.add({ id, displayNames: [{ text: id === 'atv' ? 'ATV' : 'ATV +' }] });
      expect(index.resolve(subject('TR: ATV HD'), none).key).toBe('atv');
      expect(index.resolve(subject('|TR| ATV+ FHD'), none).key).toBe('atvplus');
    }
    const index = new GuideIndex();
    index.add({ id: 'arte', displayNames: [{ text: 'Arte' }] });
    expect(index.resolve(subject('FR: Arte +1 HD'), none).key).toBeUndefined();
  });
});

describeCorpus('stations by their call sign, as the corpus has them', () => {
  it.each([
    ['FOX 32 Chicago IL (WFLD) (720p)', 'g2495'],
    ['KMSP-DT1 (1080p)', 'g3444'],
    ['WBTV News (720p)', 'g2939'],
    ['ABC 15 Myrtle Beach FL (WPDE) (1080p)', 'g929'],
    ['FOX 5 New York NY (WNYW) (720p)', 'g3655'],
    ['KQED-DT2 (1080p)', 'g1699'],
  ])('"%s" gets %s', (name, id) => {
    const { index } = guideOf('us');
    for (const key of resolved(index, 'us', name)) expect(key).toBe(id);
  });

  it.each([
    // The station's other channels (`Decades (WNYW-DT5)`, `WNYW FOX Weather` of WNYW-DT3).
    ['FOX 5 New York NY (WNYW) (720p)', ['g539', 'g978', 'g2046', 'g3286']],
    ['KQED-DT2 (1080p)', ['g3329', 'g1030', 'g3644']],
    ['KRGV-DT2 [Geo-blocked]', ['g3682']],
    ['FOX 32 Chicago IL (WFLD) (720p)', ['g781', 'g3606']],
  ])('"%s" never gets another channel of the station, %j', (name, never) => {
    const { index } = guideOf('us');
    for (const key of resolved(index, 'us', name)) expect(never).not.toContain(key);
    // Nor when the guide lacks the right channel.
    const { index: without } = guideOf('us', (i) => !['g3655', 'g1699', 'g2495'].includes(`g${i + 1}`));
    for (const key of resolved(without, 'us', name)) expect(never).not.toContain(key);
  });
});

describeCorpus('no sibling wins anywhere in the corpus', () => {
  const countries = Object.keys(corpus.countries);

  /** Every name of `cc`'s guide with a number or a time shift, and its channel's position. */
  function marked(cc: string): [number, string][] {
    const out: [number, string][] = [];
    for (const [i, [, list]] of corpus.countries[cc]!.guide.entries()) {
      for (const name of list) {
        const form = formOf(name);
        if (form.marks !== '' || form.shift !== 0) out.push([i, name]);
      }
    }
    return out;
  }

  /** Fails unless guide channel `key` has a name with the numbers and shift of `name`. */
  function sameMarks(cc: string, names: Map<string, string[]>, name: string, key: string | undefined): number {
    if (key === undefined) return 0;
    const form = formOf(name);
    const same = names.get(key)!.some((n) => formOf(n).shift === form.shift && formOf(n).marks === form.marks);
    if (!same) expect.fail(`${cc} "${name}" got ${key} ${JSON.stringify(names.get(key))}`);
    return 1;
  }

  it('a name with a number or a time shift never gets a channel without that number or shift', () => {
    let checked = 0;
    for (const cc of countries) {
      const { index, names } = guideOf(cc);
      for (const [, name] of marked(cc)) {
        // As written, and with a word the guide lacks, so that the scored stage decides.
        for (const key of resolved(index, cc, name)) checked += sameMarks(cc, names, name, key);
        const scored = index.resolve(subject(`${cc.toUpperCase()} ● ${name} TV Europe`), none);
        checked += sameMarks(cc, names, name, scored.key);
      }
    }
    expect(checked).toBeGreaterThan(3_000);
  });

  it('nor when the guide lacks the right channel', () => {
    let scored = 0;
    for (const cc of countries) {
      // Half the guide's channels; the names of the other half must find nothing rather than a sibling.
      const { index, names } = guideOf(cc, (i) => i % 2 === 0);
      for (const [i, name] of marked(cc)) {
        if (i % 2 === 0) continue;
        for (const style of [name, `|${cc.toUpperCase()}| ${name} HD`, `${name} TV Europe`]) {
          const match = index.resolve(subject(style), none);
          sameMarks(cc, names, name, match.key);
          if (match.rule === 'scored' || match.candidates !== undefined) scored++;
        }
      }
    }
    // The scored stage looked at many of them (it had candidates), and chose no sibling.
    expect(scored).toBeGreaterThan(500);
  });

  it('a channel and its regional variant each keep their own name', () => {
    let pairs = 0;
    let found = 0;
    for (const cc of countries) {
      const { index, names } = guideOf(cc);
      // Channels by key, and the keys variants extend (`BBC One Scotland` over `BBC One`).
      const byKey = new Map<string, Set<string>>();
      for (const [id, list] of names) {
        for (const n of list) {
          const key = formOf(n).key;
          if (!byKey.has(key)) byKey.set(key, new Set());
          byKey.get(key)!.add(id);
        }
      }
      for (const [id, list] of names) {
        for (const n of list) {
          const form = formOf(n);
          const bases = form.baseKey === undefined ? undefined : byKey.get(form.baseKey);
          if (bases === undefined || bases.has(id)) continue;
          const owners = byKey.get(form.key)!;
          const base = [...bases].find((b) => !owners.has(b));
          if (base === undefined) continue;
          pairs++;
          // The variant's name gets a channel of that name, never the base channel alone; as
          // written (the exact rules) and with a word more (the scored stage).
          const baseName = names.get(base)!.find((b) => formOf(b).key === form.baseKey)!;
          for (const key of resolved(index, cc, n)) {
            if (key !== undefined && !owners.has(key)) expect.fail(`${cc} "${n}" got ${key}, not ${[...owners]}`);
          }
          const scored = index.resolve(subject(`${n} TV`), none).key;
          if (scored === undefined || owners.has(scored)) found += scored === undefined ? 0 : 1;
          else expect.fail(`${cc} "${n} TV" got ${scored}, not ${[...owners]}`);
          // The base's name never gets a channel named only as the variant (with a region more in
          // brackets: a word such as `TV` or `Europe` can make another real name, `Globo TV` the
          // channel also named `TV Globo`, `Film+ Europe` the one named `Film Europe +`).
          const more = index.resolve(subject(`${baseName} (Zentrum)`), none).key;
          for (const key of [...resolved(index, cc, baseName), more]) {
            if (key !== undefined && !bases.has(key)) expect.fail(`${cc} "${baseName}" got ${key}, not ${[...bases]}`);
          }
        }
      }
    }
    expect(pairs).toBeGreaterThan(20);
    // With a word more, the scored stage still finds the variant itself for most of them.
    expect(found).toBeGreaterThan(pairs * 0.6);
  });
});
