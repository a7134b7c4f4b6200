/**
 * Writes the generated data as the files Marquee imports: a library JSON, M3U playlists and
 * XMLTV guides. Guides are written in ~1 MB chunks with backpressure, so a 370 MB guide never
 * sits in memory whole.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { channel, movie, programmes } from './dataset.js';

const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pad2 = (n) => String(n).padStart(2, '0');

/** XMLTV time, `20260301203000 +0000`. */
function xmltvTime(ms) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}00 +0000`;
}

/** Write to `path` through a temp name, so an interrupted run never leaves a half file that looks done. */
export async function writeChunks(path, produce) {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.partial`;
  const out = createWriteStream(temp);
  let buffer = '';
  const write = async (text) => {
    buffer += text;
    if (buffer.length < 1 << 20) return;
    const ok = out.write(buffer);
    buffer = '';
    if (!ok) await once(out, 'drain');
  };
  await produce(write);
  out.end(buffer);
  await once(out, 'finish');
  renameSync(temp, path);
  return statSync(path).size;
}

/** The library file: `{ items: [...] }` of `count` movies. */
export function writeLibrary(path, seed, count) {
  mkdirSync(dirname(path), { recursive: true });
  const items = Array.from({ length: count }, (_, i) => movie(seed, i));
  writeFileSync(path, JSON.stringify({ items }));
  return statSync(path).size;
}

/**
 * An M3U playlist of `entries` entries over `channels` channels (entry i is channel i % channels,
 * so a channel with several entries has several streams).
 */
export function writeM3u(path, seed, { channels, entries }) {
  return writeChunks(path, async (write) => {
    await write('#EXTM3U\n');
    for (let i = 0; i < entries; i++) {
      const c = channel(seed, i % channels);
      const backup = i >= channels ? ` (backup ${Math.floor(i / channels)})` : '';
      await write(
        `#EXTINF:-1 tvg-id="${c.tvgId}" tvg-name="${c.name}" tvg-logo="${c.logo}" tvg-chno="${c.chno}" group-title="${c.group}",${c.name}${backup}\n` +
          `${backup ? c.url.replace('index', `backup${Math.floor(i / channels)}`) : c.url}\n`,
      );
    }
  });
}

/** An XMLTV guide of `channels` channels, their programmes listed channel by channel. */
export function writeXmltv(path, seed, { channels, start, days, perDay, verbosity }) {
  return writeChunks(path, async (write) => {
    await write('<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="marquee bench">\n');
    for (let i = 0; i < channels; i++) {
      const c = channel(seed, i);
      await write(
        `  <channel id="${c.tvgId}">\n    <display-name lang="en">${xml(c.name)}</display-name>\n` +
          `    <icon src="${c.logo}" />\n  </channel>\n`,
      );
    }
    for (let i = 0; i < channels; i++) {
      const id = channel(seed, i).tvgId;
      for (const p of programmes(seed, i, { start, days, perDay, verbosity })) {
        let s = `  <programme start="${xmltvTime(p.start)}" stop="${xmltvTime(p.stop)}" channel="${id}">\n`;
        s += `    <title lang="en">${xml(p.title)}</title>\n`;
        if (p.subTitle) s += `    <sub-title lang="en">${xml(p.subTitle)}</sub-title>\n`;
        if (p.desc) s += `    <desc lang="en">${xml(p.desc)}</desc>\n`;
        for (const c of p.categories) s += `    <category lang="en">${c}</category>\n`;
        if (p.date) s += `    <date>${p.date}</date>\n`;
        if (p.episode) {
          s += `    <episode-num system="xmltv_ns">${p.episode.season - 1}.${p.episode.episode - 1}.</episode-num>\n`;
          s += `    <episode-num system="onscreen">S${pad2(p.episode.season)}E${pad2(p.episode.episode)}</episode-num>\n`;
        }
        if (p.icon) s += `    <icon src="${p.icon}" />\n`;
        await write(`${s}  </programme>\n`);
      }
    }
    await write('</tv>\n');
  });
}

/** Run `make(path)` unless `path` already exists (the data depends only on the name's parameters). */
export async function cached(path, make) {
  if (existsSync(path)) return { path, bytes: statSync(path).size, reused: true };
  const bytes = await make(path);
  return { path, bytes, reused: false };
}
