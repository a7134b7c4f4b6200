/**
 * Programmes as they cross from the parsing thread (thread.ts) to the importing one: the texts of
 * a message in one array, every number in another, and the
 * strings that repeat from programme to programme (channel ids, languages) once per message in a
 * table the numbers point into. Structured-cloning the programme objects themselves cost the
 * parsing thread more than parsing them (0.24–0.65 s per 40 MB of guide, for their nested
 * `{ text, lang }` objects), which made it the bottleneck. `decodeProgrammes` of what
 * `ProgrammeEncoder` took is the programmes it was given, shape for shape (wire.test.ts).
 */
import type { LangText, Programme } from '../records.js';

/** Programmes on the wire. */
export interface ProgrammeWire {
  readonly texts: string[];
  /** Channel ids and languages, each once; numbers point into it (0: none). */
  readonly table: string[];
  /**
   * A plain array, cloned into the receiving heap: a transferred Float64Array per message was
   * memory outside the heap that the importing thread, allocating little, collected late (peak
   * RSS 235 MB on the gzip benchmark guide against 193 MB in one thread).
   */
  readonly numbers: number[];
}

/** Flags: the two booleans, then which of the optional texts are there. */
const PREVIOUSLY_SHOWN = 1;
const IS_NEW = 2;
const ON_SCREEN = 4;
const DATE = 8;
const ICON = 16;
const STAR_RATING = 32;

/** Programmes gathered for one message: `add` them as they are read, `take` the wire. */
export class ProgrammeEncoder {
  #texts: string[] = [];
  #table: string[] = [''];
  #index = new Map<string, number>();
  #numbers: number[] = [];

  get size(): number {
    return this.#numbers.length;
  }

  add(list: readonly Programme[]): void {
    const texts = this.#texts;
    const n = this.#numbers;
    for (const p of list) {
      const flags =
        (p.previouslyShown ? PREVIOUSLY_SHOWN : 0) |
        (p.isNew ? IS_NEW : 0) |
        (p.episodeOnScreen !== undefined ? ON_SCREEN : 0) |
        (p.date !== undefined ? DATE : 0) |
        (p.icon !== undefined ? ICON : 0) |
        (p.starRating !== undefined ? STAR_RATING : 0);
      n.push(
        this.#ref(p.channelId),
        p.start,
        p.stop,
        p.season ?? Number.NaN,
        p.episode ?? Number.NaN,
        p.line,
        flags,
        p.titles.length,
        p.subTitles.length,
        p.descriptions.length,
        p.categories.length,
        p.ratings.length,
        p.directors.length,
        p.actors.length,
      );
      if (p.episodeOnScreen !== undefined) texts.push(p.episodeOnScreen);
      if (p.date !== undefined) texts.push(p.date);
      if (p.icon !== undefined) texts.push(p.icon);
      if (p.starRating !== undefined) texts.push(p.starRating);
      this.#langTexts(p.titles);
      this.#langTexts(p.subTitles);
      this.#langTexts(p.descriptions);
      this.#langTexts(p.categories);
      for (const r of p.ratings) {
        n.push(r.system === undefined ? 0 : this.#ref(r.system));
        texts.push(r.value);
      }
      for (const d of p.directors) texts.push(d);
      for (const a of p.actors) texts.push(a);
    }
  }

  /** What was added since the last take, on the wire. */
  take(): ProgrammeWire {
    const wire = { texts: this.#texts, table: this.#table, numbers: this.#numbers };
    this.#texts = [];
    this.#table = [''];
    this.#index = new Map();
    this.#numbers = [];
    return wire;
  }

  #langTexts(list: readonly LangText[]): void {
    for (const t of list) {
      this.#texts.push(t.text);
      this.#numbers.push(t.lang === undefined ? 0 : this.#ref(t.lang));
    }
  }

  #ref(text: string): number {
    let i = this.#index.get(text);
    if (i === undefined) {
      i = this.#table.push(text) - 1;
      this.#index.set(text, i);
    }
    return i;
  }
}

/** The programmes of a wire, as the reader made them. */
export function decodeProgrammes(wire: ProgrammeWire): Programme[] {
  const { texts, table, numbers } = wire;
  const list: Programme[] = [];
  let t = 0;
  let at = 0;
  const langTexts = (count: number): LangText[] => {
    const out: LangText[] = [];
    for (let i = 0; i < count; i++) {
      const lang = numbers[at++]!;
      out.push({ text: texts[t++]!, lang: lang === 0 ? undefined : table[lang] } as LangText);
    }
    return out;
  };
  while (at < numbers.length) {
    const channelId = table[numbers[at]!]!;
    const start = numbers[at + 1]!;
    const stop = numbers[at + 2]!;
    const season = numbers[at + 3]!;
    const episode = numbers[at + 4]!;
    const line = numbers[at + 5]!;
    const flags = numbers[at + 6]!;
    const counts = at + 7;
    at += 14;
    const episodeOnScreen = (flags & ON_SCREEN) !== 0 ? texts[t++] : undefined;
    const date = (flags & DATE) !== 0 ? texts[t++] : undefined;
    const icon = (flags & ICON) !== 0 ? texts[t++] : undefined;
    const starRating = (flags & STAR_RATING) !== 0 ? texts[t++] : undefined;
    const titles = langTexts(numbers[counts]!);
    const subTitles = langTexts(numbers[counts + 1]!);
    const descriptions = langTexts(numbers[counts + 2]!);
    const categories = langTexts(numbers[counts + 3]!);
    const ratings: { system?: string; value: string }[] = [];
    for (let i = numbers[counts + 4]!; i > 0; i--) {
      const system = numbers[at++]!;
      const value = texts[t++]!;
      ratings.push(system === 0 ? { value } : { system: table[system]!, value });
    }
    const directors = texts.slice(t, t + numbers[counts + 5]!);
    t += directors.length;
    const actors = texts.slice(t, t + numbers[counts + 6]!);
    t += actors.length;
    // The reader's own shape (programme.ts build), key for key.
    list.push({
      channelId,
      start,
      stop,
      titles,
      subTitles,
      descriptions,
      categories,
      season: Number.isNaN(season) ? undefined : season,
      episode: Number.isNaN(episode) ? undefined : episode,
      episodeOnScreen,
      date,
      icon,
      ratings,
      starRating,
      directors,
      actors,
      previouslyShown: (flags & PREVIOUSLY_SHOWN) !== 0,
      isNew: (flags & IS_NEW) !== 0,
      line,
    } as Programme);
  }
  return list;
}
