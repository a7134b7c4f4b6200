/**
 * Inline Markdown nodes (markdown-inline.ts) as HTML and as plain text, and the rule of which
 * addresses a link may have. Every text is escaped on output.
 */
import { escapeHtml } from './html.js';
import type { Inline } from './markdown-inline.js';

/**
 * The address a Markdown link may point to, or undefined when it must not be a link: only
 * http(s), relative and `#` addresses. Decided by the URL parser browsers use (which drops tabs
 * and newlines and reads `\` as `/`), so `java\tscript:` is seen as the `javascript:` it becomes.
 *
 * @example safeHref('#tailscale') // '#tailscale'; safeHref('javascript:alert(1)') // undefined
 */
export function safeHref(destination: string): string | undefined {
  if (destination === '' || /[\u0000-\u001f\u007f]/.test(destination)) return undefined;
  try {
    const { protocol } = new URL(destination, 'https://relative.invalid/page/');
    return protocol === 'https:' || protocol === 'http:' ? destination : undefined;
  } catch {
    return undefined;
  }
}

/** The inline nodes as HTML, every text escaped. */
export function inlineHtml(nodes: readonly Inline[]): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += escapeHtml(node.text);
        break;
      case 'code':
        out += `<code>${escapeHtml(node.text)}</code>`;
        break;
      case 'strong':
      case 'em':
        out += `<${node.kind}>${inlineHtml(node.children)}</${node.kind}>`;
        break;
      case 'link': {
        const inner = inlineHtml(node.children);
        if (node.href === undefined) out += inner;
        else {
          // Another site never learns which page linked it.
          const away = /^(?:https?:)?\/\//i.test(node.href) ? ' rel="noreferrer"' : '';
          out += `<a href="${escapeHtml(node.href)}"${away}>${inner}</a>`;
        }
        break;
      }
      case 'break':
        out += '<br>\n';
        break;
    }
  }
  return out;
}

/** The inline nodes as plain text (a heading's anchor and a page title are made from it). */
export function inlineText(nodes: readonly Inline[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'code') out += node.text;
    else if (node.kind === 'break') out += ' ';
    else out += inlineText(node.children);
  }
  return out;
}
