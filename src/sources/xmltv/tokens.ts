/**
 * The token callbacks of htmlparser2's Tokenizer (XML mode, entity decoding off), whether they come
 * from our port of it (xml-tokenizer.ts, the default) or from htmlparser2's own (the plain path),
 * handled directly rather than through htmlparser2's Parser: the Parser cuts a string for every
 * text run and attribute and keeps its own element stack, while a guide reader ignores most of both.
 * Here strings are cut only when the mapper wants them, the element stack is ours, and depth and
 * attribute sizes are bounded as they grow.
 */
import type { QuoteType, TokenizerCallbacks } from 'htmlparser2';
import type { XmltvLimits } from './limits.js';
import { Attributes, type XmltvMapper } from './mapper.js';
import type { DocumentWindow } from './window.js';

export class TokenHandler implements TokenizerCallbacks {
  /** Offset up to which the tokenizer has reported: what follows is one unfinished token. */
  reported = 0;
  /** Names of the open elements, outermost first; `depth` of them are valid. */
  readonly names: string[] = [];
  private mapper!: XmltvMapper;
  private depth = 0;
  private tagStart = 0;
  private wantAttribute = false;
  private attributeName = '';
  private attributeValue = '';
  private attributeLength = 0;
  private inCdata = false;

  constructor(
    private readonly window: DocumentWindow,
    private readonly limits: XmltvLimits,
  ) {}

  /** Connects the mapper (it needs `names` from this handler, hence not in the constructor). */
  attach(mapper: XmltvMapper): void {
    this.mapper = mapper;
  }

  onopentagname(start: number, end: number): void {
    this.reported = end;
    this.tagStart = start - 1; // the `<`
    const depth = ++this.depth;
    if (depth > this.limits.maxDepth) {
      throw this.mapper.fail(
        'SOURCE_INVALID',
        this.tagStart,
        `elements are nested deeper than ${this.limits.maxDepth} levels`,
      );
    }
    const name = this.window.slice(start, end);
    this.names[depth - 1] = name;
    this.mapper.open(name, depth, this.tagStart);
  }

  /** A `<` between elements: a plain `<programme>` is read whole (XmlTokenizer's `onelement`). */
  onelement(buffer: string, i: number, offset: number): number {
    // The programme, its children and theirs must be within the depth limit.
    if (this.depth + 3 > this.limits.maxDepth) return -1;
    const end = this.mapper.readPlainProgramme(buffer, i, offset);
    // As after its events: reported up to the `>` of its end tag.
    if (end >= 0) this.reported = end - 1 + offset;
    return end;
  }

  onattribname(start: number, end: number): void {
    this.reported = end;
    this.attributeLength = 0;
    this.wantAttribute = this.mapper.attributes !== Attributes.Ignored;
    if (this.wantAttribute) {
      this.attributeName = this.window.slice(start, end);
      this.attributeValue = '';
    }
  }

  onattribdata(start: number, end: number): void {
    this.reported = end;
    this.attributeLength += end - start;
    if (this.attributeLength > this.limits.maxAttributeLength) {
      const element = this.names[this.depth - 1];
      const message = `an attribute of <${element}> is longer than ${this.limits.maxAttributeLength} characters`;
      throw this.mapper.fail('SOURCE_TOO_LARGE', this.tagStart, message);
    }
    if (this.wantAttribute) this.attributeValue += this.window.slice(start, end);
  }

  onattribend(_quote: QuoteType, end: number): void {
    this.reported = end;
    if (this.wantAttribute) this.mapper.attribute(this.attributeName, this.attributeValue);
  }

  onopentagend(end: number): void {
    this.reported = end;
  }

  onselfclosingtag(end: number): void {
    this.reported = end;
    this.closeInnermost(false, this.tagStart);
  }

  onclosetag(start: number, end: number): void {
    this.reported = end;
    const name = this.window.slice(start, end);
    let open = this.depth - 1;
    while (open >= 0 && this.names[open] !== name) open--;
    if (open < 0) return; // an end tag nothing opened: ignored, as every XML recovery does
    while (this.depth > open + 1) this.closeInnermost(true, start - 2);
    this.closeInnermost(false, start - 2);
  }

  ontext(start: number, end: number): void {
    this.reported = end;
    if (this.mapper.collecting) this.mapper.text(this.window.slice(start, end), start, this.inCdata);
    else if (this.mapper.checksProlog) this.mapper.prologText(this.window.slice(start, end), start);
  }

  oncdata(start: number, end: number, endOffset: number): void {
    this.reported = end;
    this.inCdata = true;
    this.ontext(start, end - endOffset);
    this.inCdata = false;
    this.reported = end;
  }

  ondeclaration(start: number, end: number): void {
    this.reported = end;
    this.mapper.declaration(this.window.slice(start, end), start);
  }

  oncomment(_start: number, end: number): void {
    this.reported = end;
  }

  onprocessinginstruction(_start: number, end: number): void {
    this.reported = end;
  }

  onend(): void {
    this.mapper.ending = true;
    while (this.depth > 0) this.closeInnermost(true, this.window.end);
    this.mapper.end();
  }

  // Entity decoding is off: the mapper decodes the text it keeps.
  onattribentity(): void {}
  ontextentity(): void {}

  private closeInnermost(implied: boolean, at: number): void {
    const depth = this.depth--;
    this.mapper.close(this.names[depth - 1]!, depth, implied, at);
  }
}
