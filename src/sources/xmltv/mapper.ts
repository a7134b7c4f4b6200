/**
 * The XMLTV model over element events: a small state machine (root, record, text field) that
 * fills one reused draft per record. Every event does a few comparisons and, inside text fields,
 * one string append; nothing is allocated for elements the guide model ignores, and the
 * tokenizer layer does not even cut their text or attributes out (see `collecting`, `attributes`).
 * Longer than our usual file on purpose: it is one state machine, and its transitions read best
 * side by side; the record rules (programme.ts), output (output.ts) and text (text.ts) live apart.
 */
import { MarqueeError } from '../../errors.js';
import { ENTRY_LIMIT_SETTINGS } from '../entry-limits.js';
import { ChannelDraft, Field, ProgrammeDraft } from './draft.js';
import { decodeXmlText, type EntityProblem, entityWarningKind, entityWarningMessage } from './entities.js';
import { fieldLimit, type XmltvLimits } from './limits.js';
import { GuideOutput } from './output.js';
import { PlainProgrammeReader } from './plain-programme.js';
import { ProgrammeFinisher } from './programme.js';
import { FieldText } from './text.js';
import type { WarningSink } from './warnings.js';
import type { DocumentWindow } from './window.js';

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
export enum Attributes {
  Ignored,
  Channel,
  Programme,
  Lang,
  System,
  RatingSystem,
  Icon,
}

export interface MapperContext {
  readonly source: string;
  readonly limits: XmltvLimits;
  readonly window: DocumentWindow;
  readonly warnings: WarningSink;
  readonly parseTime: (text: string) => number | undefined;
  /** May errors quote the document's text? Not for a document of a host the operator did not name. */
  readonly quote?: boolean;
}

/** The settings of the fields cut to limits of their own (entry-limits.ts), as messages name them. */
const FIELD_SETTINGS: ReadonlyMap<Field, string> = new Map([
  [Field.DisplayName, ENTRY_LIMIT_SETTINGS.maxNameLength],
  [Field.Title, ENTRY_LIMIT_SETTINGS.maxProgrammeTitleLength],
  [Field.SubTitle, ENTRY_LIMIT_SETTINGS.maxProgrammeTitleLength],
  [Field.Category, ENTRY_LIMIT_SETTINGS.maxProgrammeTitleLength],
  [Field.Desc, ENTRY_LIMIT_SETTINGS.maxDescriptionLength],
]);

export class XmltvMapper {
  readonly output: GuideOutput;
  /** Set when the input has ended: closes from then on are implied by the end of input. */
  ending = false;
  /** True inside a text element we keep: only then is text worth cutting out of the input. */
  collecting = false;
  /** What the attributes of the element just opened mean; Ignored means they need not be read. */
  attributes = Attributes.Ignored;
  /** True until the root opens, unless a DTD subset makes stray text there expected. */
  checksProlog = true;

  private readonly limits: XmltvLimits;
  private readonly lines: DocumentWindow;
  private readonly warnings: WarningSink;
  private readonly finisher: ProgrammeFinisher;
  private readonly plain: PlainProgrammeReader;

  private root = Root.Before;
  private lastOpenStart = -1;

  private record = Kind.None;
  private recordDepth = 0;
  private readonly channel = new ChannelDraft();
  private readonly programme = new ProgrammeDraft();
  private listsFull = false;
  private textsCut = 0;

  private field = Field.None;
  private fieldDepth = 0;
  private readonly fieldText: FieldText;
  private lang: string | undefined = undefined;
  private system: string | undefined = undefined;
  private readonly reportInAttribute = (problem: EntityProblem, name: string) =>
    this.reportEntity(problem, name, this.lastOpenStart);

  constructor(
    private readonly context: MapperContext,
    /** Names of the open elements, outermost first, kept by the tokenizer layer. */
    private readonly names: readonly string[],
  ) {
    this.limits = context.limits;
    this.lines = context.window;
    this.warnings = context.warnings;
    this.fieldText = new FieldText(context.limits.maxTextLength, (problem, name, at) =>
      this.reportEntity(problem, name, at),
    );
    this.output = new GuideOutput(context.limits, context.warnings, (message) =>
      this.fail('SOURCE_TOO_LARGE', this.lastOpenStart, message),
    );
    this.plain = new PlainProgrammeReader(context.limits);
    this.finisher = new ProgrammeFinisher(context.parseTime, context.warnings, context.limits.maxChannels, (p) =>
      this.output.addProgramme(p),
    );
  }

  /** An element opens at absolute offset `at` (its `<`); `depth` counts it (the root is 1). */
  open(name: string, depth: number, at: number): void {
    this.lastOpenStart = at;
    this.attributes = Attributes.Ignored;
    if (this.field !== Field.None) {
      this.fieldText.flush(); // markup inside a text element: its text is kept, the raw run ends here
    } else if (this.record === Kind.Programme) {
      this.openInProgramme(name, depth, at);
    } else if (this.record === Kind.Channel) {
      this.openInChannel(name, depth, at);
    } else if (this.root === Root.Inside) {
      if (name === 'programme') this.beginRecord(Kind.Programme, depth, at);
      else if (name === 'channel') this.beginRecord(Kind.Channel, depth, at);
    } else if (depth === 1) {
      this.openRoot(name, at);
    }
  }

  /**
   * The tokenizer is at a `<` (`buffer[i]`, absolute offset `i + offset`) between elements: when a
   * `<programme>` written plainly starts there and ends inside `buffer`, it is read whole, with the
   * effects its events would have had (plain-programme.ts), and the index just past its end tag is
   * returned; else -1, and the tokenizer reads on as events.
   */
  readPlainProgramme(buffer: string, i: number, offset: number): number {
    if (this.record !== Kind.None || this.root !== Root.Inside || !PlainProgrammeReader.startsAt(buffer, i)) return -1;
    this.programme.reset(this.lines.lineAt(i + offset));
    const end = this.plain.read(buffer, i, this.programme);
    if (end < 0) return -1;
    this.lastOpenStart = this.plain.lastOpen + offset;
    this.finisher.finish(this.programme);
    return end;
  }

  /** An attribute of the element just opened, as written; called only when `attributes` is not Ignored. */
  attribute(name: string, raw: string): void {
    switch (this.attributes) {
      case Attributes.Ignored:
        break;
      case Attributes.Programme:
        if (name === 'start') this.programme.start = this.decode(raw);
        else if (name === 'stop') this.programme.stop = this.decode(raw);
        else if (name === 'channel') this.programme.channel = this.decode(raw);
        break;
      case Attributes.Channel:
        if (name === 'id') this.channel.id = this.decode(raw);
        break;
      case Attributes.Lang:
        if (name === 'lang' && raw !== '') this.lang = this.decode(raw);
        break;
      case Attributes.System:
        if (name === 'system') this.system = this.decode(raw);
        break;
      case Attributes.RatingSystem:
        if (name === 'system' && raw !== '') this.programme.ratingSystem = this.decode(raw);
        break;
      case Attributes.Icon: {
        const draft = this.record === Kind.Channel ? this.channel : this.programme;
        if (name === 'src' && draft.icon === undefined && raw.trim() !== '') draft.icon = this.decode(raw.trim());
        break;
      }
    }
  }

  /** Text inside a kept element, as written, at absolute offset `at`; called only while `collecting`. */
  text(data: string, at: number, cdata: boolean): void {
    const cut = cdata ? this.fieldText.appendCdata(data) : this.fieldText.appendRaw(data, at);
    if (cut) this.said(at);
  }

  /** Programme texts cut to their limits since the last call (a count for the report). */
  takeCut(): number {
    const cut = this.textsCut;
    this.textsCut = 0;
    return cut;
  }

  /**
   * Says that the text of the field being collected was cut at offset `at`: a display name with a
   * warning at its line; a programme's title, sub-title, category or description counted (a guide
   * can hold a million of them), with one warning per field the first time; any other text with
   * a warning, as before.
   */
  private said(at: number): void {
    const name = this.names[this.fieldDepth - 1];
    const limit = this.fieldText.limit;
    const setting = FIELD_SETTINGS.get(this.field);
    if (this.field === Field.DisplayName) {
      this.warnings.add(this.lines.lineAt(at), `<${name}> is longer than ${limit} characters; cut (${setting})`);
    } else if (setting !== undefined) {
      this.textsCut++;
      this.warnings.once(
        `cut:${name}`,
        this.lines.lineAt(at),
        `<${name}> is longer than ${limit} characters; cut (${setting}): each text cut is counted in the report, this one is said once`,
      );
    } else {
      this.warnings.add(this.lines.lineAt(at), `text of <${name}> is longer than ${limit} characters; truncated`);
    }
  }

  /** Text outside any kept element, before the root: only whitespace belongs there. */
  prologText(data: string, at: number): void {
    if (data.trim() === '') return;
    const sample = this.context.quote === false ? `${data.trim().length} characters` : `"${data.trim().slice(0, 40)}"`;
    const message = `text before the first element (${sample}): not an XMLTV guide (compressed data not recognised, or an error page?)`;
    throw this.fail('SOURCE_INVALID', at, message);
  }

  /**
   * The element at `depth` closes at offset `at`. `implied` when its end tag is missing and an
   * ancestor's end tag (or the end of input, see `ending`) closes it.
   */
  close(name: string, depth: number, implied: boolean, at: number): void {
    if (implied && !this.ending && this.record !== Kind.None) {
      this.warnings.add(this.lines.lineAt(at), `<${name}> is not closed; it ends at this end tag`);
    }
    if (this.field !== Field.None) {
      if (depth > this.fieldDepth) {
        this.fieldText.flush();
        return;
      }
      this.endField();
      this.collecting = false;
    }
    if (this.record !== Kind.None) {
      if (depth !== this.recordDepth) return;
      if (this.ending) this.dropUnfinished();
      else this.endRecord();
    } else if (depth === 1 && this.root === Root.Inside && !this.ending) {
      this.root = Root.After;
    }
  }

  /** A `<!...>` declaration other than a comment or CDATA, without its `<!` and `>`. */
  declaration(text: string, at: number): void {
    // A plain `<!DOCTYPE tv SYSTEM "xmltv.dtd">` is normal and harmless: the DTD is never fetched.
    if (/^doctype/i.test(text) && text.indexOf('[') < 0) return;
    // Inside an internal subset, text between declarations (`]>`, `%param;`) is expected.
    this.checksProlog = false;
    const message = 'the DOCTYPE declares an internal subset (entities): it is ignored and no entity is ever expanded';
    this.warnings.once('dtd', this.lines.lineAt(at), message);
  }

  /** The input ended and every open element was closed. */
  end(): void {
    if (this.root === Root.Before) {
      throw this.fail('SOURCE_INVALID', this.lines.end, 'no <tv> element: not an XMLTV guide');
    }
    this.finisher.flush();
    if (this.root === Root.Inside) {
      const kept = `the ${this.output.channelCount} channels and ${this.output.programmeCount} programmes read before are kept`;
      this.warnings.add(this.lines.lastLine(), `the guide ends before </tv> (truncated download or file); ${kept}`);
    } else if (this.output.channelCount === 0 && this.output.programmeCount === 0) {
      this.warnings.add(undefined, 'the guide holds no usable channel or programme');
    }
  }

  /** Where the document must still be kept from for this mapper's sake (text not yet decoded). */
  heldFrom(): number {
    return this.collecting ? this.fieldText.heldFrom() : Number.POSITIVE_INFINITY;
  }

  private openRoot(name: string, at: number): void {
    if (name === 'tv') {
      if (this.root === Root.After) {
        this.warnings.add(this.lines.lineAt(at), 'a second <tv> follows </tv>: read as a continuation of the guide');
      }
      this.root = Root.Inside;
      this.checksProlog = false;
    } else if (this.root === Root.Before) {
      const hint = name.toLowerCase() === 'html' ? ' (an HTML page)' : '';
      throw this.fail('SOURCE_INVALID', at, `the root element is <${name}>${hint}, not <tv>: not an XMLTV guide`);
    } else {
      this.warnings.once('after-root', this.lines.lineAt(at), `<${name}> after </tv> is ignored`);
    }
  }

  private openInProgramme(name: string, depth: number, at: number): void {
    const level = depth - this.recordDepth;
    if (level === 1) {
      this.openProgrammeChild(name, depth, at);
    } else if (level === 2 && name === 'value') {
      const parent = this.names[depth - 2];
      if (parent === 'rating') this.beginField(Field.RatingValue, depth, Attributes.Ignored);
      else if (parent === 'star-rating') this.beginField(Field.StarRatingValue, depth, Attributes.Ignored);
    } else if (level === 2 && this.names[depth - 2] === 'credits') {
      if (name === 'director') this.beginField(Field.Director, depth, Attributes.Ignored);
      else if (name === 'actor') this.beginField(Field.Actor, depth, Attributes.Ignored);
    } else if (name === 'programme' || name === 'channel') {
      this.recoverUnclosed(name, depth, at);
    }
  }

  /** Elements directly inside `<programme>` (a switch: string hashing for a Map costs more). */
  private openProgrammeChild(name: string, depth: number, at: number): void {
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
      case 'programme':
      case 'channel':
        this.recoverUnclosed(name, depth, at);
        return;
    }
  }

  private openInChannel(name: string, depth: number, at: number): void {
    if (name === 'programme' || name === 'channel') this.recoverUnclosed(name, depth, at);
    else if (depth - this.recordDepth !== 1) return;
    else if (name === 'display-name') this.beginField(Field.DisplayName, depth, Attributes.Lang);
    else if (name === 'url') this.beginField(Field.ChannelUrl, depth, Attributes.Ignored);
    else if (name === 'icon') this.attributes = Attributes.Icon;
  }

  /** A record opens inside the previous one: that one missed its end tag; it ends here. */
  private recoverUnclosed(name: string, depth: number, at: number): void {
    const open = this.record === Kind.Programme ? 'programme' : 'channel';
    const message = `<${open}> is not closed before the <${name}> at line ${this.lines.lineAt(at)}; it ends there`;
    this.warnings.add(this.recordLine(), message);
    this.endRecord();
    this.beginRecord(name === 'programme' ? Kind.Programme : Kind.Channel, depth, at);
  }

  private beginRecord(kind: Kind.Channel | Kind.Programme, depth: number, at: number): void {
    this.record = kind;
    this.recordDepth = depth;
    this.listsFull = false;
    if (kind === Kind.Programme) {
      this.programme.reset(this.lines.lineAt(at));
      this.attributes = Attributes.Programme;
    } else {
      this.channel.reset(this.lines.lineAt(at));
      this.attributes = Attributes.Channel;
    }
  }

  private beginField(field: Field, depth: number, attributes: Attributes): void {
    this.field = field;
    this.collecting = true;
    this.fieldDepth = depth;
    this.attributes = attributes;
    this.fieldText.begin(fieldLimit(this.limits, field));
    this.lang = undefined;
    this.system = undefined;
  }

  private endField(): void {
    const text = this.fieldText.end();
    const field = this.field;
    this.field = Field.None;
    if (text === '') return;
    const max = this.limits.maxValuesPerList;
    const kept =
      this.record === Kind.Channel
        ? this.channel.add(field, text, this.lang, max)
        : this.programme.add(field, text, this.lang, this.system, max);
    if (!kept && !this.listsFull) {
      this.listsFull = true;
      this.warnings.add(
        this.recordLine(),
        `more than ${max} <${this.names[this.fieldDepth - 1]}> values; the rest are dropped`,
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
    this.output.addChannel(this.channel);
  }

  /** The input ended inside a record: what was read of it may be incomplete, so it is dropped. */
  private dropUnfinished(): void {
    const name = this.record === Kind.Programme ? 'programme' : 'channel';
    this.warnings.add(
      this.recordLine(),
      `the guide ends inside this <${name}> (truncated or not closed); it is dropped`,
    );
    this.record = Kind.None;
  }

  private recordLine(): number {
    return this.record === Kind.Programme ? this.programme.line : this.channel.line;
  }

  /** An attribute value we keep, with its references decoded. */
  private decode(raw: string): string {
    return raw.indexOf('&') < 0 ? raw : decodeXmlText(raw, this.reportInAttribute);
  }

  private reportEntity(problem: EntityProblem, name: string, at: number): void {
    const kind = entityWarningKind(problem, name);
    if (!this.warnings.has(kind)) this.warnings.once(kind, this.lines.lineAt(at), entityWarningMessage(problem, name));
  }

  /** The error that stops the read, located at absolute offset `at`. */
  fail(code: 'SOURCE_INVALID' | 'SOURCE_TOO_LARGE', at: number, message: string): MarqueeError {
    const line = this.lines.lineAt(at);
    return new MarqueeError(code, `${this.context.source}:${line}: ${message}`, {
      details: { source: this.context.source, line },
    });
  }
}
