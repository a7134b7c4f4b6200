/**
 * Line numbers for a streaming parser that only knows character offsets. Newlines are counted
 * lazily, with native indexOf, from the last position asked up to the next one, so the whole
 * document is scanned once however many records ask. Only text the parser may still point back
 * into is retained.
 */
export class LineCounter {
  private readonly texts: string[] = [];
  private readonly starts: number[] = [];
  private end = 0;
  /** Absolute offset up to which newlines are counted, and the 1-based line there. */
  private cursor = 0;
  private line = 1;

  /** Appends the next piece of the document. */
  push(text: string): void {
    this.texts.push(text);
    this.starts.push(this.end);
    this.end += text.length;
  }

  /** The 1-based line of absolute character offset `position`. Positions asked for should mostly grow. */
  at(position: number): number {
    const target = Math.min(Math.max(position, 0), this.end);
    if (target < this.cursor) return this.line - this.countNewlines(target, this.cursor);
    this.line += this.countNewlines(this.cursor, target);
    this.cursor = target;
    return this.line;
  }

  /** The line of the last character pushed so far. */
  lastLine(): number {
    return this.at(this.end - 1);
  }

  /** Forgets text before `position`: the parser will not point there again. */
  release(position: number): void {
    while (this.texts.length > 1 && this.starts[1]! <= position && this.starts[1]! <= this.cursor) {
      this.texts.shift();
      this.starts.shift();
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
        const nl = text.indexOf('\n', i);
        if (nl < 0 || nl >= stop) break;
        count++;
        i = nl + 1;
      }
    }
    return count;
  }
}
