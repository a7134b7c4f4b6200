/**
 * A small Markdown renderer for Marquee's own guides (docs/https.md), served as pages: ATX
 * headings with GitHub's anchors (so in-page links work), paragraphs, bullet and numbered lists
 * (nested by indentation), GitHub tables, fenced code, rules, and the inline forms of
 * markdown-inline.ts. HTML comments (the docs' `<!-- test: … -->` annotations) are dropped; any
 * other HTML is shown as text. Every piece of text is escaped. Not a CommonMark implementation:
 * what the guides use, rendered as GitHub renders it.
 */
import { escapeHtml, SafeHtml } from './html.js';
import { inlineHtml, inlineText } from './markdown-html.js';
import { parseInline } from './markdown-inline.js';
import { readTable, renderTable, type TableBlock, tableAt } from './markdown-table.js';

export interface MarkdownHeading {
  /** 1–6, as written in the Markdown (before `headingOffset`). */
  readonly level: number;
  /** The anchor, as GitHub makes it: `Caddy in front, with a domain` → `caddy-in-front-with-a-domain`. */
  readonly id: string;
  readonly text: string;
}

export interface RenderedMarkdown {
  readonly html: SafeHtml;
  readonly headings: readonly MarkdownHeading[];
}

export interface MarkdownOptions {
  /** Added to every heading's level (at most h6): 1 renders `#` as `<h2>` under a page's own `<h1>`. */
  readonly headingOffset?: number;
}

type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'code'; readonly lang: string | undefined; readonly text: string }
  | { readonly kind: 'rule' }
  | TableBlock
  | {
      readonly kind: 'list';
      readonly ordered: boolean;
      readonly start: number;
      readonly loose: boolean;
      readonly items: Block[][];
    };

/** Lists nested deeper than this are read as text. */
const MAX_NESTING = 8;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^( {0,3})([-*+]|(\d{1,9})([.)]))( +|$)/;

/**
 * Renders `source` as HTML: every text escaped, only http(s), relative and `#` links, headings
 * with GitHub's anchors.
 *
 * @example renderMarkdown('# Title\n\nSee [below](#more).').html.value // '<h1 id="title">Title</h1>\n<p>See …'
 */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): RenderedMarkdown {
  const lines = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const headings: MarkdownHeading[] = [];
  const seen = new Map<string, number>();
  const anchor = (text: string): string => {
    const base =
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replaceAll(' ', '-') || 'section';
    // GitHub numbers repeated headings: `setup`, `setup-1`, `setup-2` (as github-slugger does).
    let id = base;
    while (seen.has(id)) {
      const n = seen.get(base)! + 1;
      seen.set(base, n);
      id = `${base}-${n}`;
    }
    seen.set(id, 0);
    return id;
  };
  const offset = Math.max(0, Math.trunc(options.headingOffset ?? 0));

  function render(blocks: readonly Block[], tight: boolean): string {
    return blocks.map((block) => renderBlock(block, tight)).join('\n');
  }

  function renderBlock(block: Block, tight: boolean): string {
    switch (block.kind) {
      case 'heading': {
        const nodes = parseInline(block.text);
        const text = inlineText(nodes).trim();
        const id = anchor(text);
        headings.push({ level: block.level, id, text });
        const tag = `h${Math.min(6, block.level + offset)}`;
        return `<${tag} id="${escapeHtml(id)}">${inlineHtml(nodes)}</${tag}>`;
      }
      case 'paragraph': {
        const inner = inlineHtml(parseInline(block.text));
        return tight ? inner : `<p>${inner}</p>`;
      }
      case 'code': {
        const lang = block.lang && /^[\w+-]+$/.test(block.lang) ? ` class="language-${block.lang}"` : '';
        return `<pre><code${lang}>${escapeHtml(block.text)}</code></pre>`;
      }
      case 'rule':
        return '<hr>';
      case 'table':
        return renderTable(block);
      case 'list': {
        const tag = block.ordered ? 'ol' : 'ul';
        const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
        const items = block.items.map((item) => `<li>${render(item, !block.loose)}</li>`).join('\n');
        return `<${tag}${start}>\n${items}\n</${tag}>`;
      }
    }
  }

  return { html: new SafeHtml(render(parseBlocks(lines, 0), false)), headings };
}

const isBlank = (line: string) => line.trim() === '';
/** Leading tabs as 4 spaces, for measuring and cutting indentation (code keeps its tabs). */
const detab = (line: string) => line.replace(/^[ \t]+/, (lead) => lead.replaceAll('\t', '    '));
const indentOf = (line: string) => {
  const even = detab(line);
  return even.length - even.trimStart().length;
};

/** Does `line` start a block that ends a paragraph? (A numbered list must start at 1 to.) */
function interrupts(lines: readonly string[], i: number): boolean {
  const line = lines[i]!;
  if (FENCE.test(line) || HEADING.test(line) || RULE.test(line) || /^ {0,3}<!--/.test(line)) return true;
  const item = LIST_ITEM.exec(line);
  if (item && line.slice(item[0].length).trim() !== '' && (item[3] === undefined || item[3] === '1')) return true;
  return tableAt(lines, i);
}

function parseBlocks(lines: readonly string[], nesting: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const indent = indentOf(line);
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        const closing = lines[i]!.trim();
        if (closing.startsWith(marker[0]!.repeat(marker.length)) && /^(`+|~+)$/.test(closing)) {
          i++;
          break;
        }
        // Content is taken out by the fence's own indentation, as CommonMark does.
        body.push(lines[i]!.replace(new RegExp(`^ {0,${indent}}`), ''));
      }
      blocks.push({ kind: 'code', lang: fence[2] || undefined, text: body.join('\n') });
      continue;
    }
    if (/^ {0,3}<!--/.test(line)) {
      // A comment is dropped, however many lines it spans (an unclosed one runs to the end).
      while (i < lines.length && !lines[i]!.includes('-->')) i++;
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2] ?? '' });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (tableAt(lines, i)) {
      const table = readTable(lines, i, interrupts);
      blocks.push(table.block);
      i = table.next;
      continue;
    }
    if (LIST_ITEM.test(line) && nesting < MAX_NESTING) {
      i = parseList(lines, i, nesting, blocks);
      continue;
    }
    // Lines keep their trailing spaces: two of them before a line end are a hard break.
    const text: string[] = [line.trimStart()];
    for (i++; i < lines.length && !isBlank(lines[i]!) && !interrupts(lines, i); i++) text.push(lines[i]!.trimStart());
    blocks.push({ kind: 'paragraph', text: text.join('\n').trimEnd() });
  }
  return blocks;
}

/** The list starting at line `start`, pushed onto `blocks`; returns the first line after it. */
function parseList(lines: readonly string[], start: number, nesting: number, blocks: Block[]): number {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const ordered = first[3] !== undefined;
  const kind = ordered ? first[4]! : first[2]!;
  /** A marker of this list (the same bullet, or numbers with the same delimiter) on `line`. */
  const itemOf = (line: string) => {
    const match = LIST_ITEM.exec(line);
    return match && (ordered ? match[4] === kind : match[2] === kind) ? match : undefined;
  };
  const items: string[][] = [];
  let loose = false;
  let i = start;
  while (i < lines.length) {
    const marker = itemOf(lines[i]!);
    if (!marker) break;
    const rest = lines[i]!.slice(marker[0].length);
    // Content lines sit under the item's text; past 4 spaces after the marker, one counts.
    const spaces = marker[5]!.length;
    const contentIndent = marker[1]!.length + marker[2]!.length + (spaces > 4 || rest === '' ? 1 : spaces);
    const item: string[] = [rest.trimStart()];
    let lastBlank = false;
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (isBlank(line)) {
        lastBlank = true;
        item.push('');
        continue;
      }
      if (indentOf(line) >= contentIndent) {
        if (lastBlank && item.some((l) => l !== '')) loose = true;
        item.push(detab(line).slice(contentIndent));
        lastBlank = false;
        continue;
      }
      if (itemOf(line)) {
        if (lastBlank) loose = true;
        break;
      }
      // A lazy continuation: the item's paragraph goes on at any indentation.
      if (!lastBlank && !interrupts(lines, i) && !LIST_ITEM.test(line)) {
        item.push(line.trim());
        continue;
      }
      break;
    }
    // Blank lines after the list's last item belong to no one.
    while (item.length > 0 && item.at(-1) === '') item.pop();
    items.push(item);
  }
  blocks.push({
    kind: 'list',
    ordered,
    start: ordered ? Number(first[3]) : 1,
    loose,
    items: items.map((item) => parseBlocks(item, nesting + 1)),
  });
  return i;
}
