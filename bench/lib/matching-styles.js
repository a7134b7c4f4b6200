/**
 * The dev set's names rewritten in ways of writing that neither of its own styles uses, to check
 * that the matcher reads names, not the dev set's two styles: other prefix shapes (`DE ★ `,
 * `FR | `, `|US| `, `USA: `, `AR: ` for Arabic, `EX-YU: `), lower case and all capitals, other
 * suffixes (`ʰᵈ`, `UHD 4K`, `HD+`, `1080p50`, `(Backup)`, `VIP`, `RAW`) and extra spaces and
 * punctuation. Deterministic: entry `i` of country `cc` is always written the same way.
 */
import { createRandom, subSeed } from './prng.js';

const SUFFIXES = ['', ' ʰᵈ', ' UHD 4K', ' HD+', ' 1080p50', ' (Backup)', ' VIP', ' RAW', ' FHD VIP', ' 4K RAW'];
/** Panels that group by language or region write these instead of the country. */
const REGION = { ae: 'AR', hr: 'EX-YU', si: 'EX-YU', mk: 'EX-YU', us: 'USA', ve: 'LATAM', ar: 'LATAM' };

/** The name of an entry (its iptv-org name) as another kind of panel writes it. */
export function rewriteName(name, cc, index, seed = 36) {
  const rand = createRandom(subSeed(seed, index * 97 + cc.charCodeAt(0) * 7 + cc.charCodeAt(1)));
  // A panel starts from the channel's name: iptv-org's resolution and notes are not in it.
  let base = name
    .replace(/\s*\((?:\d+[pi]|\d+p\d+)\)/g, '')
    .replace(/\s*\[(?:Geo-blocked|Not 24\/7)\]/g, '')
    .trim();
  const code = REGION[cc] && rand() < 0.5 ? REGION[cc] : cc.toUpperCase();
  const prefixes = [`${code} ★ `, `${code} | `, `|${code}| `, `${code}: `, `${code} ➤ `, `${code} - `, ''];
  const style = rand();
  if (style < 0.25) base = base.toLowerCase();
  else if (style < 0.5) base = base.toUpperCase();
  if (rand() < 0.3) base = base.replace(/ /g, () => (rand() < 0.5 ? '  ' : ' '));
  let out = `${rand.pick(prefixes)}${base}${rand.pick(SUFFIXES)}`;
  if (rand() < 0.15) out = `${out} -`;
  if (rand() < 0.15) out = ` ${out}.`;
  return out;
}
