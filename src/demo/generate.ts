import { formatXmltvTime } from '../sources/xmltv/time.js';
import { DEMO_CHANNELS, logoFor } from './channels.js';

const HOUR = 3_600_000;

/** The demo playlist: one entry per stream, with the attributes real IPTV playlists carry. */
export function demoPlaylist(): string {
  const lines = ['#EXTM3U'];
  for (const c of DEMO_CHANNELS) {
    for (const url of c.streams) {
      lines.push(
        `#EXTINF:-1 tvg-id="${c.id}" tvg-name="${c.name}" tvg-logo="${logoFor(c)}" tvg-chno="${c.number}" group-title="${c.group}",${c.name}`,
        url,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The demo guide: back-to-back programmes from two days before `now` to three days after, so
 * today (in any time zone) always has a full grid. Deterministic for a given `now` hour.
 */
export function demoGuide(now: number): string {
  const from = Math.floor(now / HOUR) * HOUR - 48 * HOUR;
  const to = from + 5 * 24 * HOUR;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv generator-info-name="Marquee demo">'];
  for (const c of DEMO_CHANNELS) {
    out.push(`  <channel id="${xml(c.id)}"><display-name lang="en">${xml(c.name)}</display-name></channel>`);
  }
  for (const [ci, c] of DEMO_CHANNELS.entries()) {
    let start = from;
    let i = Math.floor(from / HOUR) + ci;
    while (start < to) {
      const [title, minutes, category, description] = c.shows[i % c.shows.length]!;
      const stop = start + minutes * 60_000;
      out.push(
        `  <programme start="${formatXmltvTime(start)}" stop="${formatXmltvTime(stop)}" channel="${xml(c.id)}">`,
        `    <title lang="en">${xml(title)}</title>`,
        `    <desc lang="en">${xml(description)}</desc>`,
        `    <category lang="en">${xml(category)}</category>`,
        '  </programme>',
      );
      start = stop;
      i++;
    }
  }
  out.push('</tv>');
  return `${out.join('\n')}\n`;
}
