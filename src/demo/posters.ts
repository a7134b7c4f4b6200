/**
 * Posters for demo library items that have none: an SVG data URI with the title, in a colour
 * derived from it, so the demo looks complete offline without an image host.
 */
export function posterFor(name: string): string {
  let hue = 0;
  for (const ch of name) hue = (hue * 31 + ch.codePointAt(0)!) % 360;
  const title = name.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="450">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,38%)"/>` +
    `<stop offset="1" stop-color="hsl(${(hue + 40) % 360},50%,16%)"/></linearGradient></defs>` +
    `<rect width="300" height="450" fill="url(#g)"/>` +
    `<text x="150" y="235" fill="#fff" font-family="sans-serif" font-size="28" font-weight="700" text-anchor="middle">${title}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The library document with a generated poster on every item that has none. */
export function withDemoPosters(document: unknown): unknown {
  const items = Array.isArray(document) ? document : (document as { items?: unknown[] }).items;
  if (!Array.isArray(items)) return document;
  const filled = items.map((item) =>
    typeof item === 'object' &&
    item !== null &&
    !('poster' in item) &&
    typeof (item as { name?: unknown }).name === 'string'
      ? { ...item, poster: posterFor((item as { name: string }).name) }
      : item,
  );
  return Array.isArray(document) ? filled : { ...(document as object), items: filled };
}
