/**
 * Text kept piece by piece in 1 MiB buffers, off the JS heap: the titles and streams of a panel's
 * lists as they arrive. As objects, 100,000 titles took 50 MB of heap and as much again in
 * collector slack; as UTF-8 bytes they take what their JSON takes.
 */
const BLOCK = 1024 * 1024;

/** Pieces of text, each read back by its index, or all of them as one text. */
export class TextBlocks {
  readonly #blocks: Buffer[] = [];
  #used = 0;
  /** Block, start and end of each piece. */
  readonly #at: number[] = [];

  get size(): number {
    return this.#at.length / 3;
  }

  /** Keeps `text`; returns its index. */
  write(text: string): number {
    let block = this.#blocks.at(-1);
    // A UTF-16 unit takes at most three bytes in UTF-8.
    if (block === undefined || block.length - this.#used < text.length * 3) {
      if (block !== undefined) this.#blocks[this.#blocks.length - 1] = block.subarray(0, this.#used);
      block = Buffer.allocUnsafe(Math.max(BLOCK, text.length * 3));
      this.#blocks.push(block);
      this.#used = 0;
    }
    const start = this.#used;
    this.#used += block.write(text, start);
    this.#at.push(this.#blocks.length - 1, start, this.#used);
    return this.#at.length / 3 - 1;
  }

  /** The piece of index `i`. */
  read(i: number): string {
    const at = i * 3;
    return this.#blocks[this.#at[at]!]!.toString('utf8', this.#at[at + 1], this.#at[at + 2]);
  }

  /** `head`, every piece in order, then `tail`, as one text. */
  joined(head: string, tail: string): string {
    const last = this.#blocks.length - 1;
    const parts = this.#blocks.map((b, i) => (i === last ? b.subarray(0, this.#used) : b));
    return Buffer.concat([Buffer.from(head), ...parts, Buffer.from(tail)]).toString('utf8');
  }
}
