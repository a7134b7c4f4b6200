/**
 * A `<programme>` written plainly, read in one pass instead of as token events (issue 23).
 *
 * Nearly every programme of a real guide is the same few lines: `<programme start stop channel>`,
 * then `<title>`, `<sub-title>`, `<desc>`, `<category>`, `<episode-num>`, `<date>`, `<icon/>`...
 * each holding plain text, then `</programme>`. Read as events, each of those costs a dozen
 * callbacks through the tokenizer, the token handler and the mapper, and a slice per name. Here the
 * whole element is crossed with `indexOf` and filled straight into the mapper's draft.
 *
 * Only what reads the same either way is taken: the whole element inside the piece of text at
 * hand; double- or single-quoted attributes; children holding text, or elements holding text
 * (`<rating><value>`, `<credits><actor>`, `<video><aspect>`), or nothing, each element closed by
 * its own `</name>`; no text over the limit, no reference that would be kept as written (those
 * warn), no list past its limit, no record opening inside the record. Anything else answers -1
 * before any effect outside the draft (which the event path resets), and the tokenizer reads the
 * element as events. `read-tokenizers.test.ts` holds the
 * reader equal to the plain path (htmlparser2's tokenizer, no fast path) on fixtures, real guides
 * and generated ones cut at random, so any difference shows there.
 */
import { Field, type ProgrammeDraft } from './draft.js';
import { decodeXmlText, type EntityReport } from './entities.js';
import { fieldLimit, type XmltvLimits } from './limits.js';
import { BANG, DQ, EQ, GT, isEndOfTagSection, isWhitespace, QUESTION, SLASH, SQ } from './xml-tokenizer.js';

// What `nextAttribute` found.
const BAIL = -1;
const ATTRIBUTE = 0;
const OPEN_END = 1;
const SELF_CLOSED = 2;

// What an element inside a programme is to the guide model (mapper.ts, `openInProgramme`).
const IGNORED = 0;
const TITLE = 1;
const SUB_TITLE = 2;
const DESC = 3;
const CATEGORY = 4;
const EPISODE = 5; // its text, with a `system`
const DATE = 6;
const ICON = 7;
const PREVIOUSLY_SHOWN = 8;
const NEW = 9;
const RATING = 10; // its `system` belongs to the values inside
const STAR_RATING = 11;
const CREDITS = 12;
const RECORD = 13; // a programme or channel opening inside the record: read as events

/** The draft field of each kind up to DATE, the kinds whose text is kept. */
const FIELDS = [Field.None, Field.Title, Field.SubTitle, Field.Desc, Field.Category, Field.EpisodeNum, Field.Date];

/** The `<programme` this reader starts on, with the `<`. */
const OPEN = '<programme';
/** The end tag it stops at, without the `<`. */
const CLOSE = '/programme>';

export class PlainProgrammeReader {
  /** After a read: the index of the `<` of the last element opened (the mapper locates errors there). */
  lastOpen = 0;
  /** Where reading goes on. */
  private k = 0;
  private nameStart = 0;
  private nameEnd = 0;
  private valueStart = 0;
  private valueEnd = 0;
  private kept = true;
  private readonly flag: EntityReport = () => {
    this.kept = false;
  };

  constructor(private readonly limits: XmltvLimits) {}

  /** Does `buffer` hold `<programme` at `i`? (The rest is checked by `read`.) */
  static startsAt(buffer: string, i: number): boolean {
    return buffer.startsWith(OPEN, i);
  }

  /**
   * Reads the programme whose `<` is at `buffer[i]` into `draft` (already reset), returning the
   * index just past its `</programme>`, or -1 when it must be read as events (see the file comment).
   */
  read(buffer: string, i: number, draft: ProgrammeDraft): number {
    const n = buffer.length;
    const after = buffer.charCodeAt(i + OPEN.length);
    if (after !== GT && !isWhitespace(after)) return -1;
    this.lastOpen = i;
    this.k = i + OPEN.length;
    this.kept = true;
    for (;;) {
      const found = this.nextAttribute(buffer, n);
      if (found === OPEN_END) break;
      if (found !== ATTRIBUTE) return -1;
      if (this.named(buffer, 'start')) draft.start = this.value(buffer);
      else if (this.named(buffer, 'stop')) draft.stop = this.value(buffer);
      else if (this.named(buffer, 'channel')) draft.channel = this.value(buffer);
    }
    if (!this.kept) return -1;
    for (;;) {
      const lt = buffer.indexOf('<', this.k);
      if (lt < 0 || lt + 1 >= n) return -1;
      if (buffer.charCodeAt(lt + 1) === SLASH) return buffer.startsWith(CLOSE, lt + 1) ? lt + 1 + CLOSE.length : -1;
      if (!this.child(buffer, n, lt, draft)) return -1;
    }
  }

  /** The element inside the programme whose `<` is at `lt`; `this.k` past its end. False: read as events. */
  private child(buffer: string, n: number, lt: number, draft: ProgrammeDraft): boolean {
    if (!this.openName(buffer, n, lt)) return false;
    const nameStart = lt + 1;
    const nameEnd = this.k;
    const kind = childKind(buffer, nameStart, nameEnd);
    if (kind === RECORD) return false;
    this.lastOpen = lt;
    if (kind === RATING) draft.ratingSystem = undefined;
    else if (kind === PREVIOUSLY_SHOWN) draft.previouslyShown = true;
    else if (kind === NEW) draft.isNew = true;
    let lang: string | undefined;
    let system: string | undefined;
    let found = this.nextAttribute(buffer, n);
    for (; found === ATTRIBUTE; found = this.nextAttribute(buffer, n)) {
      if (kind === IGNORED) continue;
      if (kind < EPISODE) {
        if (this.named(buffer, 'lang') && this.valueEnd > this.valueStart) lang = this.value(buffer);
      } else if (kind === EPISODE) {
        if (this.named(buffer, 'system')) system = this.value(buffer);
      } else if (kind === ICON) {
        if (this.named(buffer, 'src') && draft.icon === undefined) {
          const raw = buffer.slice(this.valueStart, this.valueEnd).trim();
          if (raw !== '') draft.icon = decodeXmlText(raw, this.flag);
        }
      } else if (kind === RATING) {
        if (this.named(buffer, 'system') && this.valueEnd > this.valueStart) draft.ratingSystem = this.value(buffer);
      }
    }
    if (found === BAIL || !this.kept) return false;
    if (found === SELF_CLOSED) return true;
    const textStart = this.k;
    let lt2 = buffer.indexOf('<', textStart);
    if (lt2 < 0) return false;
    const closed = endTag(buffer, lt2, nameStart, nameEnd);
    if (closed >= 0) {
      this.k = closed;
      if (kind === IGNORED || kind > DATE) return true;
      return this.keep(buffer, textStart, lt2, FIELDS[kind]!, lang, system, draft);
    }
    // Markup inside: elements one level down, in an element whose text is not kept.
    if (kind !== IGNORED && kind < ICON) return false;
    for (;;) {
      if (lt2 + 1 >= n) return false;
      if (buffer.charCodeAt(lt2 + 1) === SLASH) {
        this.k = endTag(buffer, lt2, nameStart, nameEnd);
        return this.k >= 0;
      }
      if (!this.grandchild(buffer, n, lt2, kind, draft)) return false;
      lt2 = buffer.indexOf('<', this.k);
      if (lt2 < 0) return false;
    }
  }

  /** An element inside the child of kind `parent`, holding text or nothing; `this.k` past its end. */
  private grandchild(buffer: string, n: number, lt: number, parent: number, draft: ProgrammeDraft): boolean {
    if (!this.openName(buffer, n, lt)) return false;
    const nameStart = lt + 1;
    const nameEnd = this.k;
    let field = Field.None;
    if (this.named(buffer, 'value', nameStart, nameEnd)) {
      if (parent === RATING) field = Field.RatingValue;
      else if (parent === STAR_RATING) field = Field.StarRatingValue;
    } else if (parent === CREDITS) {
      if (this.named(buffer, 'actor', nameStart, nameEnd)) field = Field.Actor;
      else if (this.named(buffer, 'director', nameStart, nameEnd)) field = Field.Director;
    } else if (childKind(buffer, nameStart, nameEnd) === RECORD) {
      return false;
    }
    this.lastOpen = lt;
    let found = this.nextAttribute(buffer, n);
    while (found === ATTRIBUTE) found = this.nextAttribute(buffer, n);
    if (found === BAIL) return false;
    if (found === SELF_CLOSED) return true;
    const textStart = this.k;
    const end = buffer.indexOf('<', textStart);
    if (end < 0) return false;
    this.k = endTag(buffer, end, nameStart, nameEnd);
    if (this.k < 0) return false;
    return field === Field.None || this.keep(buffer, textStart, end, field, undefined, undefined, draft);
  }

  /** Stores the text `buffer[start, end)` of an element as its events would; false: read as events. */
  private keep(
    buffer: string,
    start: number,
    end: number,
    field: Field,
    lang: string | undefined,
    system: string | undefined,
    draft: ProgrammeDraft,
  ): boolean {
    if (end - start > fieldLimit(this.limits, field)) return false; // cut (and said) there
    const text = decodeXmlText(buffer.slice(start, end), this.flag).trim();
    if (!this.kept) return false;
    return text === '' || draft.add(field, text, lang, system, this.limits.maxValuesPerList);
  }

  /** The name of the tag opening at `lt`: `this.k` at its end. False when no element opens there. */
  private openName(buffer: string, n: number, lt: number): boolean {
    const first = buffer.charCodeAt(lt + 1);
    if (first === SLASH || first === BANG || first === QUESTION || isEndOfTagSection(first)) return false;
    let k = lt + 2;
    while (k < n && !isEndOfTagSection(buffer.charCodeAt(k))) k++;
    this.k = k;
    return k < n;
  }

  /** Is `buffer[start, end)` (by default the attribute name just found) `name`? */
  private named(buffer: string, name: string, start = this.nameStart, end = this.nameEnd): boolean {
    return end - start === name.length && buffer.startsWith(name, start);
  }

  /**
   * The next attribute of the open tag at `this.k`: its name and value bounds in the fields, and
   * `this.k` past it. Or the tag's end (`>`, `/>`), `this.k` past that. BAIL for anything else: a
   * value unquoted or past the limit, no `=`, the end of the text.
   */
  private nextAttribute(buffer: string, n: number): number {
    let k = this.k;
    let c = buffer.charCodeAt(k);
    while (isWhitespace(c)) c = buffer.charCodeAt(++k);
    if (k >= n) return BAIL;
    if (c === GT) {
      this.k = k + 1;
      return OPEN_END;
    }
    if (c === SLASH) {
      if (buffer.charCodeAt(k + 1) !== GT) return BAIL;
      this.k = k + 2;
      return SELF_CLOSED;
    }
    if (c === EQ) return BAIL;
    const nameStart = k;
    while (++k < n) {
      c = buffer.charCodeAt(k);
      if (c === EQ || isEndOfTagSection(c)) break;
    }
    if (k >= n || c !== EQ) return BAIL;
    const quote = buffer.charCodeAt(k + 1);
    if (quote !== DQ && quote !== SQ) return BAIL;
    const end = buffer.indexOf(quote === DQ ? '"' : "'", k + 2);
    if (end < 0 || end - (k + 2) > this.limits.maxAttributeLength) return BAIL;
    this.nameStart = nameStart;
    this.nameEnd = k;
    this.valueStart = k + 2;
    this.valueEnd = end;
    this.k = end + 1;
    return ATTRIBUTE;
  }

  /** The attribute value just found, references decoded (a kept-as-written one clears `kept`). */
  private value(buffer: string): string {
    return decodeXmlText(buffer.slice(this.valueStart, this.valueEnd), this.flag);
  }
}

/** What a child named `buffer[start, end)` is (see the kinds above). */
function childKind(buffer: string, start: number, end: number): number {
  switch (end - start) {
    case 3:
      return buffer.startsWith('new', start) ? NEW : IGNORED;
    case 4:
      if (buffer.startsWith('desc', start)) return DESC;
      if (buffer.startsWith('date', start)) return DATE;
      return buffer.startsWith('icon', start) ? ICON : IGNORED;
    case 5:
      return buffer.startsWith('title', start) ? TITLE : IGNORED;
    case 6:
      return buffer.startsWith('rating', start) ? RATING : IGNORED;
    case 7:
      if (buffer.startsWith('credits', start)) return CREDITS;
      return buffer.startsWith('channel', start) ? RECORD : IGNORED;
    case 8:
      return buffer.startsWith('category', start) ? CATEGORY : IGNORED;
    case 9:
      if (buffer.startsWith('sub-title', start)) return SUB_TITLE;
      return buffer.startsWith('programme', start) ? RECORD : IGNORED;
    case 11:
      if (buffer.startsWith('star-rating', start)) return STAR_RATING;
      return buffer.startsWith('episode-num', start) ? EPISODE : IGNORED;
    case 16:
      return buffer.startsWith('previously-shown', start) ? PREVIOUSLY_SHOWN : IGNORED;
    default:
      return IGNORED;
  }
}

/** The index just past the end tag `</name>` at `at` of the name at `buffer[start, end)`, with nothing before its `>`; else -1. */
function endTag(buffer: string, at: number, start: number, end: number): number {
  if (buffer.charCodeAt(at + 1) !== SLASH) return -1;
  const length = end - start;
  for (let j = 0; j < length; j++) {
    if (buffer.charCodeAt(at + 2 + j) !== buffer.charCodeAt(start + j)) return -1;
  }
  return buffer.charCodeAt(at + 2 + length) === GT ? at + 3 + length : -1;
}
