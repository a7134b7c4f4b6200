/**
 * The text of one element being collected. Raw text arrives in pieces cut anywhere (an entity may
 * straddle two chunks), so it is decoded when a run of raw text ends: at CDATA, at nested markup,
 * at the end tag. CDATA is appended as is. The total is bounded by the limit of the field it is
 * collected for (`begin`): maxTextLength, or a name's or programme text's own.
 */
import { decodeXmlText, type EntityProblem, type EntityReport } from './entities.js';

export class FieldText {
  private text = '';
  private raw = '';
  /** Absolute offset where the current raw run starts: entity warnings are located from there. */
  private rawStart = 0;
  private cut = false;
  private readonly report: EntityReport;
  /** The limit of the field being collected. */
  private maxLength: number;

  constructor(
    private readonly defaultMax: number,
    /** Called for each reference kept as written, with its absolute offset. */
    onEntity: (problem: EntityProblem, name: string, position: number) => void,
  ) {
    this.report = (problem, name, offset) => onEntity(problem, name, this.rawStart + offset);
    this.maxLength = defaultMax;
  }

  /** Where the undecoded text held starts (the document must be kept from there), else Infinity. */
  heldFrom(): number {
    return this.raw === '' ? Number.POSITIVE_INFINITY : this.rawStart;
  }

  /** Starts collecting a field of at most `max` characters (default maxTextLength). */
  begin(max = this.defaultMax): void {
    this.text = '';
    this.raw = '';
    this.cut = false;
    this.maxLength = Math.min(max, this.defaultMax);
  }

  /** The limit of the field being collected. */
  get limit(): number {
    return this.maxLength;
  }

  /** Appends undecoded text found at absolute position `at`; true when this is the piece that hit the limit. */
  appendRaw(data: string, at: number): boolean {
    if (this.cut) return false;
    if (this.raw === '') this.rawStart = at;
    this.raw += data;
    return this.text.length + this.raw.length > this.maxLength && this.truncate();
  }

  /** Appends CDATA content; true when this is the piece that hit the limit. */
  appendCdata(data: string): boolean {
    if (this.cut) return false;
    this.flush();
    this.text += data;
    return this.text.length > this.maxLength && this.truncate();
  }

  /** Decodes the raw run collected so far: the next text does not continue it. */
  flush(): void {
    if (this.raw === '') return;
    this.text += decodeXmlText(this.raw, this.report);
    this.raw = '';
  }

  /** The collected text, decoded and trimmed; resets for the next element. */
  end(): string {
    this.flush();
    const text = this.text.trim();
    this.text = '';
    return text;
  }

  /** Cuts the text once decoded is past the limit (references make raw text longer than what it says). */
  private truncate(): boolean {
    this.flush();
    if (this.text.length <= this.maxLength) return false;
    const code = this.text.charCodeAt(this.maxLength - 1);
    this.text = this.text.slice(0, code >= 0xd800 && code <= 0xdbff ? this.maxLength - 1 : this.maxLength);
    this.cut = true;
    return true;
  }
}
