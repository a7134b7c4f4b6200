/**
 * The inline part of the small Markdown renderer (markdown.ts): code spans, `**bold**`,
 * `*emphasis*`, links `[text](url "title")` and `<https://…>`, backslash escapes and hard line
 * breaks; inline HTML comments are dropped and any other HTML is text. A link is a link only to
 * an http(s), relative or `#` address (`safeHref`): anything else is rendered as its text
 * (markdown-html.ts, which escapes every text). Each scan is bounded, so no input makes the work
 * grow faster than its length times a constant.
 */
import { safeHref } from './markdown-html.js';

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong' | 'em'; readonly children: readonly Inline[] }
  | { readonly kind: 'link'; readonly href: string | undefined; readonly children: readonly Inline[] }
  | { readonly kind: 'break' };

/** Link text longer than this is not looked for: `[` is then text (keeps `[[[[…` linear). */
const MAX_LINK_TEXT = 1_000;
/** A link's address and title: longer ones are not a link (keeps `[x](` repeated linear). */
const MAX_DESTINATION = 2_048;
const MAX_TITLE = 1_000;
/** Nesting of bold, emphasis and link text; deeper markers are text. */
const MAX_DEPTH = 8;
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const SPACE = /\s/;

/**
 * Parses one paragraph's (or heading's, or table cell's) text into inline nodes.
 *
 * @example parseInline('see `serve --tls-cert` in [the guide](#guide)')
 */
export function parseInline(source: string): Inline[] {
  return new InlineParser(source).parse(0, source.length, 0, false);
}

class InlineParser {
  /** Start of the backtick run closing the code span opened by the run at each start (-1: none). */
  private readonly closers = new Map<number, number>();
  /** Per marker and range end: from this position on, no closer exists (each later opener fails at once). */
  private readonly noCloser = new Map<string, number>();
  /** Past this position no HTML comment closes: `<!--` there is text at once. */
  private commentsCloseBefore = Number.POSITIVE_INFINITY;

  constructor(private readonly src: string) {
    const runs: Array<{ start: number; length: number }> = [];
    for (let i = 0; i < src.length; ) {
      if (src[i] !== '`') {
        i += src[i] === '\\' ? 2 : 1;
        continue;
      }
      const start = i;
      while (src[i] === '`') i++;
      runs.push({ start, length: i - start });
    }
    const nextOfLength = new Map<number, number>();
    for (let r = runs.length - 1; r >= 0; r--) {
      const run = runs[r]!;
      this.closers.set(run.start, nextOfLength.get(run.length) ?? -1);
      nextOfLength.set(run.length, run.start);
    }
  }

  parse(from: number, to: number, depth: number, inLink: boolean): Inline[] {
    const src = this.src;
    const nodes: Inline[] = [];
    let text = '';
    const flush = () => {
      if (text !== '') nodes.push({ kind: 'text', text });
      text = '';
    };
    let i = from;
    while (i < to) {
      const c = src[i]!;
      if (c === '\\') {
        const next = src[i + 1];
        if (next === '\n' && i + 1 < to) {
          flush();
          nodes.push({ kind: 'break' });
          i += 2;
        } else if (next !== undefined && i + 1 < to && PUNCTUATION.test(next)) {
          text += next;
          i += 2;
        } else {
          text += c;
          i++;
        }
        continue;
      }
      if (c === '`') {
        const span = this.codeSpan(i, to);
        if (span) {
          flush();
          nodes.push({ kind: 'code', text: span.text });
          i = span.end;
        } else {
          // An unclosed run is text, all of it (its backticks open nothing later either).
          let end = i;
          while (src[end] === '`') end++;
          text += src.slice(i, end);
          i = end;
        }
        continue;
      }
      if (c === '\n') {
        // Two spaces before a line end are a hard break; a plain line end is a space.
        if (text.endsWith('  ')) {
          text = text.trimEnd();
          flush();
          nodes.push({ kind: 'break' });
        } else {
          text = `${text.trimEnd()}\n`;
        }
        i++;
        while (src[i] === ' ' && i < to) i++;
        continue;
      }
      if (c === '<') {
        const special = this.angle(i, to);
        if (special) {
          flush();
          if (special.node) nodes.push(special.node);
          i = special.end;
          continue;
        }
      }
      if (c === '*' && depth < MAX_DEPTH) {
        const strong = src[i + 1] === '*';
        const marker = strong ? '**' : '*';
        const end = this.emphasisEnd(i + marker.length, to, marker);
        if (end !== undefined) {
          flush();
          nodes.push({
            kind: strong ? 'strong' : 'em',
            children: this.parse(i + marker.length, end, depth + 1, inLink),
          });
          i = end + marker.length;
          continue;
        }
        text += marker;
        i += marker.length;
        continue;
      }
      if (c === '[' && !inLink && depth < MAX_DEPTH) {
        const link = this.link(i, to);
        if (link) {
          flush();
          nodes.push({
            kind: 'link',
            href: safeHref(link.destination),
            children: this.parse(i + 1, link.textEnd, depth + 1, true),
          });
          i = link.end;
          continue;
        }
      }
      text += c;
      i++;
    }
    flush();
    return nodes;
  }

  /** The code span whose opening backtick run starts at `at`, when it closes before `to`. */
  private codeSpan(at: number, to: number): { text: string; end: number } | undefined {
    const close = this.closers.get(at) ?? -1;
    if (close === -1 || close >= to) return undefined;
    let length = 0;
    while (this.src[at + length] === '`') length++;
    let text = this.src.slice(at + length, close).replaceAll('\n', ' ');
    // One space each side is padding (so a span can start or end with a backtick), unless it is all spaces.
    if (text.length >= 2 && text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') {
      text = text.slice(1, -1);
    }
    return { text, end: close + length };
  }

  /** Skips the code span or escape at `i` (for scans that must not look inside them); the next position. */
  private skip(i: number, to: number): number {
    const c = this.src[i];
    if (c === '\\') return i + 2;
    if (c === '`') {
      const span = this.codeSpan(i, to);
      if (span) return span.end;
      let end = i;
      while (this.src[end] === '`') end++;
      return end;
    }
    return i + 1;
  }

  /** Where the emphasis opened just before `from` closes (its closing marker's start), if it does. */
  private emphasisEnd(from: number, to: number, marker: string): number | undefined {
    const src = this.src;
    // The opener must be followed by text, and a lone `*` must not be half of a `**`.
    if (from >= to || SPACE.test(src[from]!) || (marker === '*' && src[from] === '*')) return undefined;
    const key = `${marker}:${to}`;
    const failedFrom = this.noCloser.get(key);
    if (failedFrom !== undefined && from >= failedFrom) return undefined;
    // From `from` itself, stepping as parse() does, so a later opener's scan sees no closer this one did not.
    for (let i = from; i < to; ) {
      if (i > from && src.startsWith(marker, i) && !SPACE.test(src[i - 1]!) && i + marker.length <= to) {
        if (marker === '**' || src[i + 1] !== '*') return i;
        i += 2;
        continue;
      }
      i = this.skip(i, to);
    }
    this.noCloser.set(key, Math.min(failedFrom ?? from, from));
    return undefined;
  }

  /** `[text](destination "title")` starting at `at`: where its text ends, its destination, and its end. */
  private link(at: number, to: number): { textEnd: number; destination: string; end: number } | undefined {
    const src = this.src;
    let depth = 0;
    let textEnd = -1;
    const limit = Math.min(to, at + 1 + MAX_LINK_TEXT);
    for (let i = at + 1; i < limit; ) {
      const c = src[i];
      if (c === '[') depth++;
      else if (c === ']') {
        if (depth === 0) {
          textEnd = i;
          break;
        }
        depth--;
      }
      i = this.skip(i, to);
    }
    if (textEnd === -1 || src[textEnd + 1] !== '(') return undefined;
    let i = textEnd + 2;
    const spaces = () => {
      while (i < to && (src[i] === ' ' || src[i] === '\n')) i++;
    };
    spaces();
    let destination = '';
    if (src[i] === '<') {
      const close = src.indexOf('>', i + 1);
      if (close === -1 || close >= to || close - i > MAX_DESTINATION || src.slice(i + 1, close).includes('\n')) {
        return undefined;
      }
      destination = src.slice(i + 1, close);
      i = close + 1;
    } else {
      let parens = 0;
      const start = i;
      const limit = Math.min(to, start + MAX_DESTINATION);
      for (; i < limit && !SPACE.test(src[i]!); i++) {
        if (src[i] === '\\' && i + 1 < to) i++;
        else if (src[i] === '(') parens++;
        else if (src[i] === ')') {
          if (parens === 0) break;
          parens--;
        }
      }
      if (i === limit && limit < to) return undefined;
      destination = src.slice(start, i);
    }
    spaces();
    const quote = src[i];
    if (quote === '"' || quote === "'" || quote === '(') {
      // A title: read past it (a page shows no tooltip worth the markup).
      const close = src.indexOf(quote === '(' ? ')' : quote, i + 1);
      if (close === -1 || close >= to || close - i > MAX_TITLE) return undefined;
      i = close + 1;
      spaces();
    }
    if (src[i] !== ')') return undefined;
    return { textEnd, destination: destination.replace(/\\([!-/:-@[-`{-~])/g, '$1'), end: i + 1 };
  }

  /** At `<`: an HTML comment (dropped) or an autolink `<https://…>`; undefined when `<` is text. */
  private angle(at: number, to: number): { node?: Inline; end: number } | undefined {
    const src = this.src;
    if (src.startsWith('<!--', at)) {
      if (at >= this.commentsCloseBefore) return undefined;
      const close = src.indexOf('-->', at + 4);
      if (close === -1) this.commentsCloseBefore = at;
      return close === -1 || close + 3 > to ? undefined : { end: close + 3 };
    }
    const auto = /^<(https?:\/\/[^\s<>]+)>/i.exec(src.slice(at, Math.min(to, at + 2_048)));
    if (!auto) return undefined;
    const url = auto[1]!;
    return {
      node: { kind: 'link', href: safeHref(url), children: [{ kind: 'text', text: url }] },
      end: at + auto[0].length,
    };
  }
}
