/**
 * The text of one element being collected. Raw text arrives in pieces cut anywhere (an entity may
 * straddle two chunks), so it is decoded when a run of raw text ends: at CDATA, at nested markup,
 * at the end tag. CDATA is appended as is. The total is bounded by maxTextLength.
 */
import { decodeXmlText, type EntityProblem, type EntityReport } from './entities.js';

export class FieldText {
  private text = '';
  private raw = '';
  /** Absolute offset where the current raw run starts: entity warnings are located from there. */
  private rawStart = 0;
  private cut = false;
  private readonly report: EntityReport;

  constructor(
    private readonly maxLength: number,
    /** Called for each reference kept as written, with its absolute offset. */
    onEntity: (problem: EntityProblem, name: string, position: number) => void,
  ) {
    this.report = (problem, name, offset) => onEntity(problem, name, this.rawStart + offset);
  }

  /** Where the undecoded text held starts (the document must be kept from there), else Infinity. */
  heldFrom(): number {
    return this.raw === '' ? Number.POSITIVE_INFINITY : this.rawStart;
  }

  begin(): void {
    this.text = '';
    this.raw = '';
    this.cut = false;
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

  private truncate(): boolean {
    this.flush();
    this.text = this.text.slice(0, this.maxLength);
    this.cut = true;
    return true;
  }
}
