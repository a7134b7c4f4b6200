import { createHash } from 'node:crypto';
import { escapeHtml } from '../server/html.js';
import { pagePolicy } from '../server/page.js';

/** A static page and the Content-Security-Policy it carries (for `_headers` too). */
export interface StaticPage {
  readonly html: string;
  readonly policy: string;
}

/**
 * A page of the live server's frame made static: the served pages' policy as a `<meta>`, its
 * inline scripts allowed by hash (a static page has no per-request nonce). The frame rules,
 * which a `<meta>` cannot carry, go in `_headers` for the hosts that read it.
 *
 * @example staticPage(layout(manifest, nonce, 'Title', body)).policy // "default-src 'none'; …"
 */
export function staticPage(page: string): StaticPage {
  const hashes = [...page.matchAll(/<script nonce="[^"]*">([\s\S]*?)<\/script>/g)].map(
    ([, script]) => `'sha256-${createHash('sha256').update(script!, 'utf8').digest('base64')}'`,
  );
  const policy = pagePolicy(hashes.join(' ') || "'none'");
  // frame-ancestors is ignored in a <meta> (browsers warn): the header in _headers carries it.
  const meta = policy
    .split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
  const head = '<meta charset="utf-8">';
  return {
    html: page.replace(head, `${head}\n<meta http-equiv="Content-Security-Policy" content="${escapeHtml(meta)}">`),
    policy,
  };
}
