/**
 * The dev set's names written in decorations nobody in this project chose: for each seed and
 * country a "panel" is drawn at random, with its own marks (symbols drawn from Unicode's symbol
 * blocks and ASCII punctuation, brackets from the opening/closing punctuation classes), its own
 * order of country code and marks, its own case (as written, capitals, lower case, small
 * capitals) and its own tags, each drawn from a shape: `\d{3,4}[pi]?` (any digits),
 * `\d{2,3} ?FPS`, `H.?26[45]`, HEVC, UHD, 4K, HDR, a word of random letters in superscript or
 * small capitals, and a word of random capitals the panel appends to many names (a panel tag
 * only the playlist itself can show to be one). No mark, tag or word is taken from a list: the
 * matcher's rules never named them. Deterministic: seed, country and entry give the same name.
 */
import { createRandom, subSeed } from './prng.js';

/** Unicode blocks of symbols: arrows, mathematical operators, technical, box drawing, blocks, geometric shapes, symbols, dingbats, more arrows, pictographs. */
const SYMBOL_BLOCKS = [
  [0x2190, 0x21ff],
  [0x2200, 0x22ff],
  [0x2300, 0x23ff],
  [0x2500, 0x259f],
  [0x25a0, 0x25ff],
  [0x2600, 0x26ff],
  [0x2700, 0x27bf],
  [0x27f0, 0x27ff],
  [0x2900, 0x297f],
  [0x2b00, 0x2bff],
  [0x1f300, 0x1f5ff],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
];

/** A character is a mark when it is a symbol or punctuation, and stays one under NFKC (`℡` is `TEL`). */
function isMark(ch) {
  if (!/^[\p{S}\p{P}]$/u.test(ch)) return false;
  const folded = ch.normalize('NFKC');
  return !/[\p{L}\p{N}\s]/u.test(folded) && !/[+&'!()[\]{}]/.test(folded);
}

/** ASCII punctuation a name never holds as a character of its own (`+`, `&`, `'`, `!` and brackets left out). */
const ASCII_MARKS = [...'"#$%*,-./:;<=>?@\\^_`|~'];

/** Opening punctuation whose next code point closes it (Unicode's Ps and Pe classes), the pair NFKC keeps a pair. */
const BRACKETS = (() => {
  const out = [];
  for (let c = 0x20; c < 0xffff; c++) {
    const open = String.fromCodePoint(c);
    const close = String.fromCodePoint(c + 1);
    if (/^\p{Ps}$/u.test(open) && /^\p{Pe}$/u.test(close)) out.push([open, close]);
  }
  return out;
})();

/** Capital letters and their superscript forms (modifier letters whose NFKC is that letter). */
const SUPERSCRIPT = (() => {
  const out = {};
  for (const [from, to] of [
    [0x1d2c, 0x1d6a],
    [0x2070, 0x209f],
  ]) {
    for (let c = from; c <= to; c++) {
      const ch = String.fromCodePoint(c);
      const folded = ch.normalize('NFKC');
      if (/^\p{Lm}$/u.test(ch) && /^[A-Z]$/.test(folded)) out[folded] ??= ch;
    }
  }
  return out;
})();

/** The Latin small capitals (NFKC leaves them as they are). */
const SMALL = Object.fromEntries([...'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ'].map((ch, i) => ['ABCDEFGHIJKLMNOPRSTUVWYZ'[i], ch]));

const CONSONANTS = 'BCDFGHJKLMNPQRSTVWXZ';
const VOWELS = 'AEIOUY';

function randomMark(rand) {
  if (rand() < 0.3) return rand.pick(ASCII_MARKS);
  for (;;) {
    const [from, to] = rand.pick(SYMBOL_BLOCKS);
    const ch = String.fromCodePoint(rand.int(from, to));
    if (isMark(ch)) return ch;
  }
}

/** A word of `n` random capitals, pronounceable or not. */
function randomWord(rand, n) {
  let w = '';
  for (let i = 0; i < n; i++) w += rand() < 0.6 ? rand.pick([...CONSONANTS]) : rand.pick([...VOWELS]);
  return w;
}

function styled(word, table) {
  return [...word].map((ch) => table[ch] ?? ch).join('');
}

/** Letters as small capitals where Latin has one; the rest as written. */
function smallCapitals(text) {
  return [...text].map((ch) => SMALL[ch.toUpperCase()] ?? ch).join('');
}

/** A tag drawn from one of the shapes. */
function tagOfShape(rand, shape) {
  const digits = (n) => String(rand.int(10 ** (n - 1), 10 ** n - 1));
  switch (shape) {
    case 'resolution':
      return `${digits(rand.int(3, 4))}${rand.pick(['', '', 'p', 'P', 'i'])}`;
    case 'fps':
      return `${digits(rand.int(2, 3))}${rand.pick(['', ' '])}${rand.pick(['FPS', 'fps', 'Fps'])}`;
    case 'codec':
      return rand() < 0.7
        ? `${rand.pick(['H', 'h'])}${rand.pick(['', '.', '-', ' ', '_'])}26${rand.pick(['4', '5'])}`
        : rand.pick(['HEVC', 'hevc', 'Hevc']);
    case 'quality':
      return rand.pick(['UHD', '4K', 'HDR', 'uhd', '4k', 'hdr']);
    case 'superscript': {
      const word = randomWord(rand, rand.int(2, 3)).replace(/[^A-Z]/g, '');
      return styled([...word].filter((ch) => SUPERSCRIPT[ch]).join('') || 'HD', SUPERSCRIPT);
    }
    case 'small': {
      const word = [...randomWord(rand, rand.int(2, 3))].filter((ch) => SMALL[ch]).join('');
      return smallCapitals(word || 'HD');
    }
    default:
      throw new Error(shape);
  }
}

const SHAPES = ['resolution', 'fps', 'codec', 'quality', 'superscript', 'small'];

/** A panel's way of writing names, drawn from `rand`. */
function panelOf(rand, cc) {
  const mark = randomMark(rand);
  const second = rand() < 0.5 ? mark : randomMark(rand);
  const [open, close] = rand.pick(BRACKETS);
  const [tagOpen, tagClose] = rand() < 0.5 ? [open, close] : rand.pick(BRACKETS);
  const code = rand() < 0.8 ? cc.toUpperCase() : cc;
  const flag = [...cc.toUpperCase()].map((ch) => String.fromCodePoint(0x1f1e6 + ch.charCodeAt(0) - 65)).join('');
  const orders = [
    (n) => `${mark} ${code} ${n}`,
    (n) => `${code} ${mark} ${n}`,
    (n) => `${mark}${code}${second} ${n}`,
    (n) => `${open}${code}${close} ${n}`,
    (n) => `${mark} ${code} ${second} ${n}`,
    (n) => `${code}${mark}${n}`,
    (n) => `${n} ${mark} ${code}`,
    (n) => `${n} ${open}${code}${close}`,
    (n) => `${flag} ${n}`,
    (n) => `${code} ${n}`,
    (n) => n,
  ];
  const cases = ['as written', 'as written', 'capitals', 'lower', 'small capitals'];
  const written = rand.pick(cases);
  // A tag in small capitals beside a name in small capitals would not be set apart: superscript then.
  const shapes = rand
    .some(SHAPES, rand.int(2, 4))
    .map((s) => (s === 'small' && written === 'small capitals' ? 'superscript' : s));
  const tags = shapes.map((shape) => () => tagOfShape(rand, shape));
  // A tag of the panel's own, the same word on many names (a panel's label).
  const label = randomWord(rand, rand.int(3, 4));
  return {
    prefix: rand.pick(orders),
    alternative: rand() < 0.3 ? rand.pick(orders) : undefined,
    case: written,
    tags,
    label: rand() < 0.5 ? label : undefined,
    labelShare: rand.int(2, 6) / 10,
    tagShare: rand.int(5, 9) / 10,
    bracketTags: rand() < 0.4,
    tagMark: rand() < 0.3 ? randomMark(rand) : undefined,
    tagOpen,
    tagClose,
  };
}

/** The panel of `seed` for country `cc`. */
export function unseenPanel(seed, cc) {
  return panelOf(createRandom(subSeed(seed, cc.charCodeAt(0) * 131 + cc.charCodeAt(1))), cc);
}

/**
 * Entry `index`'s name (its iptv-org name) as the panel of `seed` for country `cc` writes it.
 * @example unseenName('CBC News Network (720p)', 'ca', 3, 1) // e.g. '⟦CA⟧ CBC NEWS NETWORK 3817p ᴿᵀ'
 */
export function unseenName(name, cc, index, seed, panel = unseenPanel(seed, cc)) {
  const rand = createRandom(subSeed(seed * 7919 + cc.charCodeAt(0) * 31 + cc.charCodeAt(1), index));
  // A panel starts from the channel's name: iptv-org's resolution and notes are not in it.
  let base = name
    .replace(/\s*\((?:\d+[pi]|\d+p\d+)\)/g, '')
    .replace(/\s*\[(?:Geo-blocked|Not 24\/7)\]/g, '')
    .trim();
  if (panel.case === 'capitals') base = base.toUpperCase();
  else if (panel.case === 'lower') base = base.toLowerCase();
  else if (panel.case === 'small capitals') base = smallCapitals(base);
  const tags = [];
  if (rand() < panel.tagShare) {
    for (const tag of rand.some(panel.tags, rand.int(1, 2))) tags.push(tag());
  }
  if (panel.label !== undefined && rand() < panel.labelShare) tags.push(panel.label);
  let tail = '';
  for (const tag of tags) {
    if (panel.bracketTags) tail += ` ${panel.tagOpen}${tag}${panel.tagClose}`;
    else if (panel.tagMark !== undefined) tail += ` ${panel.tagMark} ${tag}`;
    else tail += ` ${tag}`;
  }
  const prefix = panel.alternative !== undefined && rand() < 0.3 ? panel.alternative : panel.prefix;
  return prefix(`${base}${tail}`);
}
