/**
 * The XMLTV mapping over htmlparser2's events: a small state machine (root, record, text field)
 * that fills one reused draft per record. Every event does a few comparisons and, inside text
 * fields, one string append; nothing is allocated for elements the guide model ignores.
 */
import type { Handler, Parser } from 'htmlparser2';
import { MarqueeError } from '../../errors.js';
import type { GuideChannel, Programme } from '../records.js';
import { ChannelDraft, Field, ProgrammeDraft } from './draft.js';
import type { XmltvLimits } from './limits.js';
import type { LineCounter } from './lines.js';
import { ProgrammeFinisher } from './programme.js';
import type { WarningSink } from './warnings.js';

/** Where the document is relative to its `<tv>` root. */
enum Root {
  Before,
  Inside,
  After,
}

enum Kind {
  None,
  Channel,
  Programme,
}

/** What the attributes of the element just opened mean to us. */
enum Attributes {
  Ignored,
  Channel,
  Programme,
  Lang,
  System,
  RatingSystem,
  Icon,
}

/** Entity names longer than this are not waited for across chunks: they are not entities. */
const MAX_ENTITY_NAME = 32;

export interface HandlerContext {
  readonly source: string;
  readonly limits: XmltvLimits;
  readonly lines: LineCounter;
  readonly warnings: WarningSink;
  readonly parseTime: (text: string) => number | undefined;
}

export class XmltvHandler implements Partial<Handler> {
  channels: GuideChannel[] = [];
  programmes: Programme[] = [];
  /** Set by the reader before `parser.end()`: closes from then on are implied by the end of input. */
  ending = false;

  private parser!: Parser;
  private readonly limits: XmltvLimits;
  private readonly lines: LineCounter;
  private readonly warnings: WarningSink;
  private readonly finisher: ProgrammeFinisher;
  private readonly channelIds = new Set<string>();
  private programmeCount = 0;

  private depth = 0;
  private readonly names: string[] = [];
  private root = Root.Before;
  private sawInternalSubset = false;
  private lastOpenStart = -1;
  private attributes = Attributes.Ignored;

  private record = Kind.None;
  private recordDepth = 0;
  private readonly channel = new ChannelDraft();
  private readonly programme = new ProgrammeDraft();
  private listsFull = false;

  private field = Field.None;
  private fieldDepth = 0;
  private text = '';
  private truncated = false;
  private lang: string | undefined = undefined;
  private system: string | undefined = undefined;
  /** A `&name` cut by a chunk boundary, kept to tell an unknown entity from a bare `&`. */
  private entityTail = '';

  constructor(private readonly context: HandlerContext) {
    this.limits = context.limits;
    this.lines = context.lines;
    this.warnings = context.warnings;
    this.finisher = new ProgrammeFinisher(context.parseTime, context.warnings, context.limits.maxChannels, (p) =>
      this.emitProgramme(p),
    );
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
  }

  onopentagname(name: string): void {
    const depth = ++this.depth;
    const at = this.parser.startIndex;
    if (depth > this.limits.maxDepth) {
      throw this.fail('SOURCE_INVALID', at, `elements are nested deeper than ${this.limits.maxDepth} levels`);
    }
    this.names[depth - 1] = name;
    this.lastOpenStart = at;
    this.attributes = Attributes.Ignored;
    if (this.field !== Field.None) return; // markup inside a text element: its text is still collected
    if (this.record === Kind.Programme) {
      this.openInProgramme(name, depth, at);
      return;
    }
    if (this.record === Kind.Channel) {
      this.openInChannel(name, depth, at);
      return;
    }
    if (this.root === Root.Inside) {
      if (name === 'programme') this.beginProgramme(depth, at);
      else if (name === 'channel') this.beginChannel(depth, at);
    } else if (depth === 1) {
      this.openRoot(name, at);
    }
  }

  onattribute(name: string, value: string): void {
    if (value.length > this.limits.maxAttributeLength) {
      throw this.fail(
        'SOURCE_TOO_LARGE',
        this.lastOpenStart,
        `attribute ${name} of <${this.names[this.depth - 1]}> is longer than ${this.limits.maxAttributeLength} characters`,
      );
    }
    switch (this.attributes) {
      case Attributes.Ignored:
        return;
      case Attributes.Programme:
        if (name === 'start') this.programme.start = value;
        else if (name === 'stop') this.programme.stop = value;
        else if (name === 'channel') this.programme.channel = value;
        return;
      case Attributes.Channel:
        if (name === 'id') this.channel.id = value;
        return;
      case Attributes.Lang:
        if (name === 'lang' && value !== '') this.lang = value;
        return;
      case Attributes.System:
        if (name === 'system') this.system = value;
        return;
      case Attributes.RatingSystem:
        if (name === 'system' && value !== '') this.programme.ratingSystem = value;
        return;
      case Attributes.Icon: {
        const draft = this.record === Kind.Channel ? this.channel : this.programme;
        if (name === 'src' && draft.icon === undefined && value.trim() !== '') draft.icon = value.trim();
        return;
      }
    }
  }

  ontext(data: string): void {
    if (this.field === Field.None) {
      if (this.root === Root.Before && !this.sawInternalSubset && data.trim() !== '') {
        throw this.fail(
          'SOURCE_INVALID',
          this.parser.startIndex,
          `text before the first element ("${data.trim().slice(0, 40)}"): not an XMLTV guide (compressed data not recognised, or an error page?)`,
        );
      }
      return;
    }
    const room = this.limits.maxTextLength - this.text.length;
    if (data.length > room) {
      if (!this.truncated) {
        this.truncated = true;
        this.text += data.slice(0, room);
        this.warnings.add(
          this.lines.at(this.parser.startIndex),
          `text of <${this.names[this.fieldDepth - 1]}> is longer than ${this.limits.maxTextLength} characters; truncated`,
        );
      }
      return;
    }
    this.text += data;
    // Raw text spans exactly its source characters; decoded entities and CDATA do not. Only raw
    // text can hold an `&` htmlparser2 left alone, i.e. an unknown entity or a bare ampersand.
    const parser = this.parser;
    if (data.length === parser.endIndex - parser.startIndex + 1) {
      if (this.entityTail !== '' || data.indexOf('&') >= 0) this.scanAmpersands(data);
    } else {
      this.entityTail = '';
    }
  }

  onclosetag(name: string, implied: boolean): void {
    const depth = this.depth--;
    if (implied && !this.ending && this.record !== Kind.None && this.parser.startIndex !== this.lastOpenStart) {
      // Implied but not self-closing: an ancestor's end tag closed it.
      this.warnings.add(this.lines.at(this.parser.startIndex), `<${name}> is not closed; it ends at this end tag`);
    }
    if (this.field !== Field.None) {
      if (depth > this.fieldDepth) return;
      this.endField();
    }
    if (this.record !== Kind.None) {
      if (depth !== this.recordDepth) return;
      if (this.ending) this.dropUnfinished();
      else this.endRecord();
    } else if (depth === 1 && this.root === Root.Inside && !this.ending) {
      this.root = Root.After;
    }
  }

  onprocessinginstruction(name: string, data: string): void {
    if (name.charCodeAt(0) !== 33) return; // `<?xml ...?>` and other processing instructions
    // A plain `<!DOCTYPE tv SYSTEM "xmltv.dtd">` is normal and harmless: the DTD is never fetched.
    if (name.toUpperCase() === '!DOCTYPE' && data.indexOf('[') < 0) return;
    this.sawInternalSubset = true;
    this.warnings.once(
      'dtd',
      this.lines.at(this.parser.startIndex),
      'the DOCTYPE declares an internal subset (entities): it is ignored and no entity is ever expanded',
    );
  }

  onend(): void {
    if (this.root === Root.Before) {
      throw this.fail('SOURCE_INVALID', this.parser.startIndex, 'no <tv> element: not an XMLTV guide');
    }
    this.finisher.flush();
    if (this.root === Root.Inside) {
      this.warnings.add(
        this.lines.lastLine(),
        `the guide ends before </tv> (truncated download or file); the ${this.channelIds.size} channels and ${this.programmeCount} programmes read before are kept`,
      );
    } else if (this.channelIds.size === 0 && this.programmeCount === 0) {
      this.warnings.add(undefined, 'the guide holds no usable channel or programme');
    }
  }

  /** The records completed since the last call. */
  take(): { channels: GuideChannel[]; programmes: Programme[] } {
    const taken = { channels: this.channels, programmes: this.programmes };
    this.channels = [];
    this.programmes = [];
    return taken;
  }

  private openRoot(name: string, at: number): void {
    if (name === 'tv') {
      if (this.root === Root.After) {
        this.warnings.add(this.lines.at(at), 'a second <tv> follows </tv>: read as a continuation of the guide');
      }
      this.root = Root.Inside;
    } else if (this.root === Root.Before) {
      const hint = name.toLowerCase() === 'html' ? ' (an HTML page)' : '';
      throw this.fail('SOURCE_INVALID', at, `the root element is <${name}>${hint}, not <tv>: not an XMLTV guide`);
    } else {
      this.warnings.once('after-root', this.lines.at(at), `<${name}> after </tv> is ignored`);
    }
  }

  private openInProgramme(name: string, depth: number, at: number): void {
    if (name === 'programme' || name === 'channel') {
      this.recoverUnclosed(name, depth, at);
      return;
    }
    const level = depth - this.recordDepth;
    if (level === 1) {
      switch (name) {
        case 'title':
          this.beginField(Field.Title, depth, Attributes.Lang);
          return;
        case 'sub-title':
          this.beginField(Field.SubTitle, depth, Attributes.Lang);
          return;
        case 'desc':
          this.beginField(Field.Desc, depth, Attributes.Lang);
          return;
        case 'category':
          this.beginField(Field.Category, depth, Attributes.Lang);
          return;
        case 'episode-num':
          this.beginField(Field.EpisodeNum, depth, Attributes.System);
          return;
        case 'date':
          this.beginField(Field.Date, depth, Attributes.Ignored);
          return;
        case 'icon':
          this.attributes = Attributes.Icon;
          return;
        case 'rating':
          this.programme.ratingSystem = undefined;
          this.attributes = Attributes.RatingSystem;
          return;
        case 'previously-shown':
          this.programme.previouslyShown = true;
          return;
        case 'new':
          this.programme.isNew = true;
          return;
      }
    } else if (level === 2) {
      const parent = this.names[depth - 2];
      if (name === 'value') {
        if (parent === 'rating') this.beginField(Field.RatingValue, depth, Attributes.Ignored);
        else if (parent === 'star-rating') this.beginField(Field.StarRatingValue, depth, Attributes.Ignored);
      } else if (parent === 'credits') {
        if (name === 'director') this.beginField(Field.Director, depth, Attributes.Ignored);
        else if (name === 'actor') this.beginField(Field.Actor, depth, Attributes.Ignored);
      }
    }
  }

  private openInChannel(name: string, depth: number, at: number): void {
    if (name === 'programme' || name === 'channel') {
      this.recoverUnclosed(name, depth, at);
      return;
    }
    if (depth - this.recordDepth !== 1) return;
    if (name === 'display-name') this.beginField(Field.DisplayName, depth, Attributes.Lang);
    else if (name === 'url') this.beginField(Field.ChannelUrl, depth, Attributes.Ignored);
    else if (name === 'icon') this.attributes = Attributes.Icon;
  }

  /** A record opens inside the previous one: that one missed its end tag; it ends here. */
  private recoverUnclosed(name: string, depth: number, at: number): void {
    const open = this.record === Kind.Programme ? 'programme' : 'channel';
    const line = this.record === Kind.Programme ? this.programme.line : this.channel.line;
    this.warnings.add(line, `<${open}> is not closed before the <${name}> at line ${this.lines.at(at)}; it ends there`);
    this.endRecord();
    if (name === 'programme') this.beginProgramme(depth, at);
    else this.beginChannel(depth, at);
  }

  private beginProgramme(depth: number, at: number): void {
    this.record = Kind.Programme;
    this.recordDepth = depth;
    this.listsFull = false;
    this.programme.reset(this.lines.at(at));
    this.attributes = Attributes.Programme;
  }

  private beginChannel(depth: number, at: number): void {
    this.record = Kind.Channel;
    this.recordDepth = depth;
    this.listsFull = false;
    this.channel.reset(this.lines.at(at));
    this.attributes = Attributes.Channel;
  }

  private beginField(field: Field, depth: number, attributes: Attributes): void {
    this.field = field;
    this.fieldDepth = depth;
    this.attributes = attributes;
    this.text = '';
    this.truncated = false;
    this.lang = undefined;
    this.system = undefined;
    this.entityTail = '';
  }

  private endField(): void {
    if (this.entityTail !== '') this.warnBareAmpersand(this.parser.startIndex);
    const text = this.text.trim();
    const field = this.field;
    this.field = Field.None;
    this.text = '';
    if (text === '') return;
    const p = this.programme;
    switch (field) {
      case Field.DisplayName:
        this.pushText(this.channel.displayNames, { text, lang: this.lang });
        return;
      case Field.ChannelUrl:
        this.channel.url ??= text;
        return;
      case Field.Title:
        this.pushText(p.titles, { text, lang: this.lang });
        return;
      case Field.SubTitle:
        this.pushText(p.subTitles, { text, lang: this.lang });
        return;
      case Field.Desc:
        this.pushText(p.descriptions, { text, lang: this.lang });
        return;
      case Field.Category:
        this.pushText(p.categories, { text, lang: this.lang });
        return;
      case Field.EpisodeNum:
        // The DTD's default system is onscreen.
        if (this.system === 'xmltv_ns') p.xmltvNs ??= text;
        else if (this.system === undefined || this.system === 'onscreen') p.onScreen ??= text;
        return;
      case Field.Date:
        p.date ??= text;
        return;
      case Field.RatingValue:
        this.pushText(
          p.ratings,
          p.ratingSystem === undefined ? { value: text } : { system: p.ratingSystem, value: text },
        );
        return;
      case Field.StarRatingValue:
        p.starRating ??= text;
        return;
      case Field.Director:
        this.pushText(p.directors, text);
        return;
      case Field.Actor:
        this.pushText(p.actors, text);
        return;
    }
  }

  private pushText<T>(list: T[], value: T): void {
    if (list.length < this.limits.maxValuesPerList) {
      list.push(value);
    } else if (!this.listsFull) {
      this.listsFull = true;
      const line = this.record === Kind.Programme ? this.programme.line : this.channel.line;
      this.warnings.add(
        line,
        `more than ${this.limits.maxValuesPerList} <${this.names[this.fieldDepth - 1]}> values; the rest are dropped`,
      );
    }
  }

  private endRecord(): void {
    const record = this.record;
    this.record = Kind.None;
    if (record === Kind.Programme) {
      this.finisher.finish(this.programme);
      return;
    }
    const c = this.channel;
    const id = c.id?.trim();
    if (!id) {
      this.warnings.add(c.line, 'channel without an id attribute; skipped');
      return;
    }
    if (this.channelIds.has(id)) {
      this.warnings.add(c.line, `channel "${id.slice(0, 60)}" is declared again; the first declaration is kept`);
      return;
    }
    if (this.channelIds.size >= this.limits.maxChannels) {
      throw this.fail('SOURCE_TOO_LARGE', this.parser.startIndex, `more than ${this.limits.maxChannels} channels`);
    }
    this.channelIds.add(id);
    this.channels.push({ id, displayNames: c.displayNames, icon: c.icon, url: c.url });
  }

  /** The input ended inside a record: what was read of it may be incomplete, so it is dropped. */
  private dropUnfinished(): void {
    const record = this.record;
    this.record = Kind.None;
    const line = record === Kind.Programme ? this.programme.line : this.channel.line;
    const name = record === Kind.Programme ? 'programme' : 'channel';
    this.warnings.add(line, `the guide ends inside this <${name}> (truncated or not closed); it is dropped`);
  }

  private emitProgramme(programme: Programme): void {
    if (++this.programmeCount > this.limits.maxProgrammes) {
      throw this.fail('SOURCE_TOO_LARGE', this.parser.startIndex, `more than ${this.limits.maxProgrammes} programmes`);
    }
    this.programmes.push(programme);
  }

  private scanAmpersands(data: string): void {
    const text = this.entityTail + data;
    const base = this.parser.startIndex - this.entityTail.length;
    this.entityTail = '';
    let i = text.indexOf('&');
    while (i >= 0) {
      let j = i + 1;
      while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
      if (j === text.length && j - i <= MAX_ENTITY_NAME) {
        this.entityTail = text.slice(i); // may be completed by the next chunk
        return;
      }
      if (j > i + 1 && text.charCodeAt(j) === 59) {
        const name = text.slice(i + 1, j);
        const kind = `entity ${name}`;
        if (!this.warnings.has(kind)) {
          this.warnings.once(
            kind,
            this.lines.at(base + i),
            `unknown entity &${name}; kept as written (XML defines only &amp; &lt; &gt; &quot; &apos; and numeric references; DTD entities are never expanded)`,
          );
        }
      } else {
        this.warnBareAmpersand(base + i);
      }
      i = text.indexOf('&', j);
    }
  }

  private warnBareAmpersand(at: number): void {
    if (this.warnings.has('ampersand')) return;
    this.warnings.once('ampersand', this.lines.at(at), 'an unescaped & is kept as written (it should be &amp;)');
  }

  private fail(code: 'SOURCE_INVALID' | 'SOURCE_TOO_LARGE', at: number, message: string): MarqueeError {
    const line = this.lines.at(at);
    return new MarqueeError(code, `${this.context.source}:${line}: ${message}`, {
      details: { source: this.context.source, line },
    });
  }
}

/** Letters, digits, `_`, `-`, `.` and `#` (numeric references htmlparser2 refused, like `&#xZZ;`). */
function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 45 ||
    c === 46 ||
    c === 35 ||
    c > 127
  );
}
