import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { Tokenizer } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { realWorldFiles } from '../../../test/helpers/corpus.js';
import { createFastTokenizer } from './fast-tokenizer.js';
import { type XmlTokenCallbacks, XmlTokenizer } from './xml-tokenizer.js';

type Callbacks = ConstructorParameters<typeof Tokenizer>[1];
const CALLBACKS = [
  'onattribdata',
  'onattribentity',
  'onattribend',
  'onattribname',
  'oncdata',
  'onclosetag',
  'oncomment',
  'ondeclaration',
  'onend',
  'onopentagend',
  'onopentagname',
  'onprocessinginstruction',
  'onselfclosingtag',
  'ontext',
  'ontextentity',
] as const;

interface Writer {
  write(chunk: string): void;
  end(): void;
}

/** Every callback with its arguments, in order. */
function record(make: (cbs: Callbacks) => Writer, chunks: readonly string[]): string[] {
  const calls: string[] = [];
  const cbs = Object.fromEntries(
    CALLBACKS.map((name) => [name, (...args: unknown[]) => void calls.push(`${name}(${args.join(',')})`)]),
  ) as unknown as Callbacks;
  const tokenizer = make(cbs);
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return calls;
}

const plain = (cbs: Callbacks) => new Tokenizer({ xmlMode: true, decodeEntities: false }, cbs);
const fast = (cbs: Callbacks) => createFastTokenizer({ xmlMode: true, decodeEntities: false }, cbs);
const ours = (cbs: Callbacks) => new XmlTokenizer(cbs as XmlTokenCallbacks);

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `text` cut at the given positions (any order, repeats give empty chunks). */
function cut(text: string, positions: readonly number[]): string[] {
  const points = [...positions.map((p) => p % (text.length + 1))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

function expectSame(chunks: readonly string[]): void {
  const expected = record(plain, chunks);
  expect(record(ours, chunks)).toEqual(expected);
}

const fixtures = new URL('../../../test/fixtures/xmltv/', import.meta.url);
/** Real guides: the vendored excerpts, and every public guide of the corpus with MARQUEE_CORPUS. */
const REAL = realWorldFiles('guides');

/** Every construct of the tokenizer, and its recovery from broken markup. */
const HANDWRITTEN: Array<[string, string]> = [
  [
    'every construct, cut short',
    `<?xml version="1.0"?><!DOCTYPE tv [<!ENTITY a "b">]><tv a=1 b='2' c="3" d e/><!-- c -- d ---><!---->` +
      `<![CDATA[x]]]]><![CDAT<p>t &amp; < x</ p></p ><//><x/ ><y></y></>text at the end <!-- open`,
  ],
  ['an unterminated attribute', '<tv><programme start="2024'],
  ['an unterminated single-quoted attribute', "<tv><programme start='2024"],
  ['an unterminated unquoted attribute', '<tv><programme start=2024'],
  ['a value-less attribute at the end', '<tv><programme start'],
  ['a value expected at the end', '<tv><programme start='],
  ['an attribute name then space at the end', '<tv><programme start '],
  ['a self-closing slash at the end', '<tv><programme /'],
  ['a closing tag then space at the end', '<tv></tv '],
  ['a lone < at the end', '<tv>text <'],
  ['a lone </ at the end', '<tv>text </'],
  ['<! at the end', '<tv><!'],
  ['<!- at the end', '<tv><!-'],
  ['<![CD at the end', '<tv><![CD'],
  ['<? at the end', '<tv><?'],
  ['a comment ending in -- at the end', '<tv><!-- x --'],
  ['a CDATA section ending in ]] at the end', '<tv><![CDATA[ x ]]'],
  [
    'names ended by every character that ends them',
    `<tv\tgenerator-info-name='x'\r\nsource=a/><long-element-name-here attr-name-x = "1"\fother=2 bare ` +
      `last/><x-y>t</x-y\n><a\rb="c"></a\t></a></programme\f>` +
      `<${'n'.repeat(300)} ${'a'.repeat(200)}="v">t</${'n'.repeat(300)}>`,
  ],
  [
    'odd markup',
    `<tv><a b="1"c='2'd=3/><e f = "x" / ><g h=i/j k=l>m</g><//x></ ><!x><!-x><!--->` +
      `<![CDATA[]]><![cdata[x]]><!-- -- - --><!-- --!><![CDATA[ ] ]] ]]]]>< tv>< /tv><a=b><a/=><a / /></a =x>` +
      `<?pi ?><?><!><!--><\r\n>text&amp;&#x41;&bogus;& <x y="&lt;'">'"</x><z y='"&gt;'/>`,
  ],
  [
    'CRLF everywhere',
    '<?xml version="1.0"?>\r\n<tv>\r\n<channel\r\nid="a"\r\n>\r\n<display-name>A</display-name>\r\n</channel>\r\n</tv>\r\n',
  ],
  [
    'a DOCTYPE with an internal subset',
    '<!DOCTYPE tv [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;">\n]>\n<tv>&lol2;</tv>',
  ],
  ['empty', ''],
  ['only text', 'just some text, no markup at all'],
];

const documents: Array<[string, string]> = [
  ...readdirSync(fixtures).map((name): [string, string] => [name, readFileSync(new URL(name, fixtures), 'latin1')]),
  ...REAL.map((path): [string, string] => [`real ${basename(path)}`, readFileSync(path, 'utf8')]),
  ...HANDWRITTEN,
];

describe('XmlTokenizer', () => {
  it.each(documents)('%s: the callbacks of htmlparser2, whole and split at every size', (_, text) => {
    const expected = record(plain, [text]);
    expect(record(ours, [text])).toEqual(expected);
    expect(record(fast, [text])).toEqual(expected);
    const sizes = text.length > 20_000 ? [1, 7, 4096, 65_536] : [1, 2, 3, 4, 5, 7, 11, 64, 1000];
    for (const size of sizes) expectSame(split(text, size));
  });

  /** Pieces XMLTV and broken XML are made of: the generator strings them together at random. */
  const piece = fc.constantFrom(
    '<',
    '>',
    '/',
    '/>',
    '</',
    '=',
    '"',
    "'",
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\f',
    '!',
    '?',
    '-',
    '--',
    '-->',
    ']',
    ']]>',
    '[',
    '<!--',
    '<![CDATA[',
    '<!DOCTYPE tv [<!ENTITY x "y">]>',
    '<?xml version="1.0" encoding="UTF-8"?>',
    '&amp;',
    '&lt;',
    '&#233;',
    '&#x1F600;',
    '&#0;',
    '&#xD800;',
    '&nbsp;',
    '&',
    '&;',
    '&#;',
    'tv',
    'programme',
    'channel',
    'title',
    'a',
    'é',
    '😀',
    '<tv>',
    '</tv>',
    '<programme start="20240101000000 +0000" stop="20240101010000 +0000" channel="c">',
    "<channel id='c'>",
    '<title lang=en>',
    '</title>',
    '<desc/>',
    'x="1"',
    "y='2'",
    'z=3',
  );

  it('equals htmlparser2 on generated documents cut at random places', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, positions) => {
        const text = pieces.join('');
        expectSame([text]);
        expectSame(cut(text, positions));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals htmlparser2 on arbitrary text cut at random places', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '<',
            '>',
            '/',
            '!',
            '?',
            '-',
            '[',
            ']',
            '"',
            "'",
            '=',
            ' ',
            '\n',
            'a',
            'C',
            'D',
            'A',
            'T',
            '&',
          ),
        }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, positions) => expectSame(cut(text, positions)),
      ),
      { numRuns: 3000 },
    );
  });

  it('equals htmlparser2 on the corpus guides cut at random places', () => {
    const guides = REAL.map((path) => readFileSync(path, 'utf8'));
    fc.assert(
      fc.property(fc.constantFrom(...guides), fc.array(fc.nat(), { maxLength: 40 }), (text, positions) =>
        expectSame(cut(text, positions)),
      ),
      { numRuns: 60 },
    );
  });
});
