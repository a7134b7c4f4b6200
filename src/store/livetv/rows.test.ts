import { describe, expect, it } from 'vitest';
import { isAbsoluteUrl } from '../../protocol/index.js';
import { cleanName, cleanText } from '../../sources/clean.js';
import type { LangText, Programme } from '../../sources/records.js';
import {
  clip,
  jsonString,
  jsonStrings,
  LIMITS,
  type ProgrammeContent,
  pickText,
  programmeTail,
  videoTail,
} from './rows.js';

/** videoTail as it was written before the fast path: JSON.stringify for every value (the plain path). */
function plainVideoTail(p: ProgrammeContent): string {
  const json = JSON.stringify;
  let tail = '';
  const title = p.title !== '' ? p.title : p.subTitle;
  if (title !== undefined && title !== '') {
    tail += `,"title":${json(p.subTitle !== undefined && p.subTitle !== title ? `${title} — ${p.subTitle}` : title)}`;
  }
  if (p.description !== undefined) tail += `,"overview":${json(p.description)}`;
  if (p.icon !== undefined && /^https?:\/\//i.test(p.icon) && isAbsoluteUrl(p.icon))
    tail += `,"thumbnail":${json(p.icon)}`;
  const year = p.date === undefined ? undefined : /^\d{4}/.exec(p.date)?.[0];
  if (year !== undefined) tail += `,"releaseInfo":"${year}"`;
  if (p.season !== undefined) tail += `,"season":${p.season}`;
  if (p.episode !== undefined) tail += `,"episode":${p.episode}`;
  if (p.categories.length > 0) tail += `,"genres":${json(p.categories)}`;
  if (p.actors.length > 0) tail += `,"cast":${json(p.actors)}`;
  if (p.directors.length > 0) tail += `,"directors":${json(p.directors)}`;
  if (p.ratings.length > 0 || p.starRating !== undefined) {
    const ratings = p.ratings.map((r) =>
      r.system === undefined ? { value: r.value } : { system: r.system, value: r.value },
    );
    if (p.starRating !== undefined) ratings.push({ system: 'stars', value: p.starRating });
    tail += `,"ratings":${json(ratings)}`;
  }
  return tail;
}

/** Texts with every kind of character JSON escapes or not: quotes, backslashes, controls, surrogates (paired and lone), U+2028. */
const TEXTS = [
  '',
  'News',
  'Late "edition"',
  'back\\slash',
  'tab\there\nnew line\r\u0000\u001f\u007f',
  'é — ü ß 日本',
  '😀 paired',
  'lone \ud800 high',
  'lone \udc00 low',
  'end \ud83d',
  '\u2028\u2029',
  '</script>',
];

function randomText(seed: number): string {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x;
  };
  const length = next() % 40;
  let text = '';
  for (let i = 0; i < length; i++) {
    const kind = next() % 5;
    text += String.fromCharCode(
      kind === 0 ? next() % 0x80 : kind === 1 ? 0xd800 + (next() % 0x800) : kind === 2 ? next() % 0x10000 : 0x61,
    );
  }
  return text;
}

describe('JSON text of a programme', () => {
  it('jsonString equals JSON.stringify on every kind of character', () => {
    for (const text of TEXTS) expect(jsonString(text)).toBe(JSON.stringify(text));
    for (let seed = 1; seed <= 20_000; seed++) {
      const text = randomText(seed);
      expect(jsonString(text)).toBe(JSON.stringify(text));
    }
  });

  it('jsonStrings equals JSON.stringify of a string array', () => {
    expect(jsonStrings([])).toBe('[]');
    expect(jsonStrings(TEXTS)).toBe(JSON.stringify(TEXTS));
    expect(jsonStrings(['a'])).toBe('["a"]');
  });

  it('videoTail equals the plain JSON.stringify rendering', () => {
    const contents: ProgrammeContent[] = [];
    for (let i = 0; i < TEXTS.length * 4; i++) {
      const t = (k: number) => TEXTS[(i + k) % TEXTS.length]!;
      contents.push({
        title: t(0),
        ...(i % 3 ? { subTitle: t(1) } : {}),
        ...(i % 2 ? { description: t(2) } : {}),
        ...(i % 4 === 0 ? { icon: 'https://img.example/p/1.jpg' } : i % 4 === 1 ? { icon: t(3) } : {}),
        categories: i % 2 ? [t(4), t(5)] : [],
        ...(i % 5 ? { season: i, episode: i + 1 } : {}),
        ...(i % 3 === 0 ? { date: '2011-05-01' } : i % 3 === 1 ? { date: t(6) } : {}),
        ratings: i % 3 === 0 ? [] : i % 3 === 1 ? [{ value: t(7) }] : [{ system: t(8), value: t(9) }, { value: 'PG' }],
        ...(i % 4 === 2 ? { starRating: t(10) } : {}),
        directors: i % 2 ? [] : [t(11)],
        actors: i % 3 ? [t(1), t(2), t(3)] : [],
      });
    }
    for (const p of contents) {
      expect(videoTail(p)).toBe(plainVideoTail(p));
      if (videoTail(p) !== '') expect(() => JSON.parse(`{${videoTail(p).slice(1)}}`)).not.toThrow();
    }
  });
});

/**
 * programmeTail as it was written before its fast paths (every text cleaned, then quoted by
 * videoTail; a new list per programme): the plain path it is held equal to.
 */
function plainProgrammeTail(p: Programme, languages: readonly string[]): string {
  const matches = (lang: string | undefined, preferred: string) =>
    lang !== undefined && (lang.toLowerCase() === preferred || lang.toLowerCase().startsWith(`${preferred}-`));
  let chosen: readonly LangText[] = p.categories;
  for (const preferred of languages) {
    if (p.categories.some((t) => matches(t.lang, preferred))) {
      chosen = p.categories.filter((t) => t.lang === undefined || matches(t.lang, preferred));
      break;
    }
  }
  const categories = new Set<string>();
  for (const t of chosen) {
    if (categories.size >= LIMITS.items) break;
    if (t.text !== '') categories.add(cleanName(clip(t.text, LIMITS.item)));
  }
  const optional = (text: string | undefined, max: number) =>
    text === undefined || text === '' ? undefined : clip(text, max);
  const subTitle = optional(pickText(p.subTitles, languages), LIMITS.title);
  const description = optional(pickText(p.descriptions, languages), LIMITS.description);
  return videoTail({
    title: cleanName(clip(pickText(p.titles, languages) ?? '', LIMITS.title)),
    subTitle: subTitle === undefined ? undefined : cleanName(subTitle),
    description: description === undefined ? undefined : cleanText(description),
    icon: optional(p.icon, LIMITS.url),
    categories: [...categories],
    season: Number.isSafeInteger(p.season) ? p.season : undefined,
    episode: Number.isSafeInteger(p.episode) ? p.episode : undefined,
    date: optional(p.date, LIMITS.item),
    ratings: p.ratings
      .slice(0, LIMITS.items)
      .map((r) =>
        r.system === undefined
          ? { value: clip(r.value, LIMITS.item) }
          : { system: clip(r.system, LIMITS.item), value: clip(r.value, LIMITS.item) },
      ),
    starRating: p.starRating === undefined ? undefined : clip(p.starRating, LIMITS.item),
    directors: p.directors.slice(0, LIMITS.items).map((s) => clip(s, LIMITS.item)),
    actors: p.actors.slice(0, LIMITS.items).map((s) => clip(s, LIMITS.item)),
  });
}

describe('programmeTail', () => {
  /** Texts of every kind: plain, with what cleaning removes (C0, DEL, C1), what JSON escapes, both, long. */
  const texts = [
    ...TEXTS,
    'A plain description, with accents é and a dash —.',
    'bell\u0007 and C1 \u0085 and DEL \u007f',
    'tab\tonly',
    'x'.repeat(LIMITS.title + 5),
    `${'y'.repeat(LIMITS.title - 1)}😀`,
    'd'.repeat(LIMITS.description + 3),
  ];
  const langTexts = (seed: number, count: number): LangText[] =>
    Array.from({ length: count }, (_, k) => ({
      text: k % 3 === 2 ? randomText(seed + k) : texts[(seed + k) % texts.length]!,
      lang: [undefined, 'en', 'de', 'EN-gb', 'fr'][(seed + k) % 5],
    }));

  it('equals the plain rendering on programmes of every shape, in every language choice', () => {
    for (let i = 0; i < 3_000; i++) {
      const p: Programme = {
        channelId: 'c',
        start: 0,
        stop: 1,
        titles: langTexts(i, i % 3),
        subTitles: langTexts(i + 1, i % 2),
        descriptions: langTexts(i + 2, (i >> 1) % 3),
        categories: langTexts(i + 3, i % 4),
        season: i % 5 ? i : undefined,
        episode: i % 7 ? i + 1 : Number.NaN,
        episodeOnScreen: undefined,
        date: i % 3 ? '2011-05-01' : undefined,
        icon: i % 4 === 0 ? 'https://img.example/p.jpg' : i % 4 === 1 ? texts[i % texts.length] : undefined,
        ratings: i % 3 === 0 ? [] : [{ value: randomText(i) }, { system: 'MPAA', value: 'PG' }],
        starRating: i % 5 === 0 ? '3/5' : undefined,
        directors: i % 2 ? [] : [texts[i % texts.length]!],
        actors: i % 3 ? [randomText(i + 7), 'A B'] : [],
        previouslyShown: false,
        isNew: false,
        line: 1,
      };
      for (const languages of [[], ['de'], ['en', 'de'], ['fr']]) {
        expect(programmeTail(p, languages)).toBe(plainProgrammeTail(p, languages));
      }
    }
  });
});
