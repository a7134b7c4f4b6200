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
