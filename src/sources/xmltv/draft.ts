/**
 * The record being read: one `<channel>` or `<programme>` whose parts arrive as parser events.
 * One draft object per guide is reset and refilled for every record, so the per-record cost is
 * the record's own arrays and nothing else.
 */
import type { LangText } from '../records.js';

/** Text element of a record whose content is being collected. */
export enum Field {
  None,
  DisplayName,
  ChannelUrl,
  Title,
  SubTitle,
  Desc,
  Category,
  EpisodeNum,
  Date,
  RatingValue,
  StarRatingValue,
  Director,
  Actor,
}

export class ChannelDraft {
  line = 0;
  id: string | undefined = undefined;
  displayNames: LangText[] = [];
  icon: string | undefined = undefined;
  url: string | undefined = undefined;

  /** Stores the text of a finished field; false when its list is already at `max` values. */
  add(field: Field, text: string, lang: string | undefined, max: number): boolean {
    if (field === Field.ChannelUrl) this.url ??= text;
    else if (field === Field.DisplayName) return push(this.displayNames, { text, lang }, max);
    return true;
  }

  reset(line: number): void {
    this.line = line;
    this.id = undefined;
    this.displayNames = [];
    this.icon = undefined;
    this.url = undefined;
  }
}

export class ProgrammeDraft {
  line = 0;
  channel: string | undefined = undefined;
  start: string | undefined = undefined;
  stop: string | undefined = undefined;
  titles: LangText[] = [];
  subTitles: LangText[] = [];
  descriptions: LangText[] = [];
  categories: LangText[] = [];
  xmltvNs: string | undefined = undefined;
  onScreen: string | undefined = undefined;
  date: string | undefined = undefined;
  icon: string | undefined = undefined;
  ratings: Array<{ system?: string; value: string }> = [];
  ratingSystem: string | undefined = undefined;
  starRating: string | undefined = undefined;
  directors: string[] = [];
  actors: string[] = [];
  previouslyShown = false;
  isNew = false;

  /** Stores the text of a finished field; false when its list is already at `max` values. */
  add(field: Field, text: string, lang: string | undefined, system: string | undefined, max: number): boolean {
    switch (field) {
      case Field.Title:
        return push(this.titles, { text, lang }, max);
      case Field.SubTitle:
        return push(this.subTitles, { text, lang }, max);
      case Field.Desc:
        return push(this.descriptions, { text, lang }, max);
      case Field.Category:
        return push(this.categories, { text, lang }, max);
      case Field.EpisodeNum:
        // The DTD's default system is onscreen; other systems (dd_progid...) carry no episode numbers.
        if (system === 'xmltv_ns') this.xmltvNs ??= text;
        else if (system === undefined || system === 'onscreen') this.onScreen ??= text;
        return true;
      case Field.Date:
        this.date ??= text;
        return true;
      case Field.RatingValue:
        return push(
          this.ratings,
          this.ratingSystem === undefined ? { value: text } : { system: this.ratingSystem, value: text },
          max,
        );
      case Field.StarRatingValue:
        this.starRating ??= text;
        return true;
      case Field.Director:
        return push(this.directors, text, max);
      case Field.Actor:
        return push(this.actors, text, max);
      default:
        return true;
    }
  }

  reset(line: number): void {
    this.line = line;
    this.channel = undefined;
    this.start = undefined;
    this.stop = undefined;
    this.titles = [];
    this.subTitles = [];
    this.descriptions = [];
    this.categories = [];
    this.xmltvNs = undefined;
    this.onScreen = undefined;
    this.date = undefined;
    this.icon = undefined;
    this.ratings = [];
    this.ratingSystem = undefined;
    this.starRating = undefined;
    this.directors = [];
    this.actors = [];
    this.previouslyShown = false;
    this.isNew = false;
  }
}

function push<T>(list: T[], value: T, max: number): boolean {
  if (list.length >= max) return false;
  list.push(value);
  return true;
}
