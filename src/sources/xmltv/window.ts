/**
 * The part of the document the tokenizer may still point into, with line numbers. htmlparser2's
 * tokenizer reports character offsets only, so slices are cut here and newlines are counted
 * lazily with native indexOf, from the last position asked to the next: the whole document is
 * scanned once however many records ask for their line.
 */
export class DocumentWindow {
  private readonly texts: string[] = [];
  private readonly starts: number[] = [];
  /** Absolute offset just past the last text pushed. */
  end = 0;
  /** Absolute offset up to which newlines are counted, and the 1-based line there. */
  private cursor = 0;
  private line = 1;

  /** Appends the next piece of the document. */
  push(text: string): void {
    this.texts.push(text);
    this.starts.push(this.end);
    this.end += text.length;
  }

  /** The document's characters from `start` to `end` (absolute offsets, still retained). */
  slice(start: number, end: number): string {
    let k = this.texts.length - 1;
    while (k > 0 && this.starts[k]! > start) k--;
    const first = this.starts[k]!;
    const text = this.texts[k]!;
    if (end - first <= text.length) return text.slice(start - first, end - first);
    let slice = text.slice(start - first);
    for (k++; k < this.texts.length && this.starts[k]! < end; k++) {
      slice += this.texts[k]!.slice(0, end - this.starts[k]!);
    }
    return slice;
  }

  /** The 1-based line of absolute offset `position`, at or after the last release. */
  lineAt(position: number): number {
    const target = Math.min(Math.max(position, 0), this.end);
    if (target < this.cursor) return this.line - this.countNewlines(target, this.cursor);
    this.line += this.countNewlines(this.cursor, target);
    this.cursor = target;
    return this.line;
  }

  /** The line of the last character pushed so far. */
  lastLine(): number {
    return this.lineAt(this.end - 1);
  }

  /** Forgets text wholly before `position`: nothing will be sliced or asked there again. */
  release(position: number): void {
    if (position > this.cursor) this.lineAt(position); // count what is about to be forgotten
    let drop = 0;
    while (drop < this.texts.length - 1 && this.starts[drop + 1]! <= position) drop++;
    if (drop > 0) {
      this.texts.splice(0, drop);
      this.starts.splice(0, drop);
    }
  }

  private countNewlines(from: number, to: number): number {
    let count = 0;
    for (let k = 0; k < this.texts.length; k++) {
      const start = this.starts[k]!;
      const text = this.texts[k]!;
      if (start + text.length <= from) continue;
      if (start >= to) break;
      const stop = Math.min(to, start + text.length) - start;
      let i = Math.max(from - start, 0);
      for (;;) {
        const newline = text.indexOf('\n', i);
        if (newline < 0 || newline >= stop) break;
        count++;
        i = newline + 1;
      }
    }
    return count;
  }
}
