import { readdirSync, readFileSync } from 'node:fs';
import { Tokenizer } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { createFastTokenizer, NAME_SKIP_AVAILABLE, NATIVE_SKIP_AVAILABLE } from './fast-tokenizer.js';

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

/** Every callback with its arguments, in order. */
function record(make: (cbs: Callbacks) => Tokenizer, chunks: readonly string[]): string[] {
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

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const fixtures = new URL('../../../test/fixtures/xmltv/', import.meta.url);
const documents: Array<[string, string]> = [
  ...readdirSync(fixtures).map((name): [string, string] => [name, readFileSync(new URL(name, fixtures), 'latin1')]),
  [
    'every construct, cut short',
    `<?xml version="1.0"?><!DOCTYPE tv [<!ENTITY a "b">]><tv a=1 b='2' c="3" d e/><!-- c -- d ---><!---->` +
      `<![CDATA[x]]]]><![CDAT<p>t &amp; < x</ p></p ><//><x/ ><y></y></>text at the end <!-- open`,
  ],
  ['an unterminated attribute', '<tv><programme start="2024'],
  [
    'names ended by every character that ends them',
    `<tv\tgenerator-info-name='x'\r\nsource=a/><long-element-name-here attr-name-x = "1"\fother=2 bare ` +
      `last/><x-y>t</x-y\n><a\rb="c"></a\t></a></programme\f>` +
      `<${'n'.repeat(300)} ${'a'.repeat(200)}="v">t</${'n'.repeat(300)}>`,
  ],
  ['a tag name that never ends', '<tv><programme-and-more-and-more'],
  ['an attribute name that never ends', '<tv a="1" attribute-without-end'],
  ['a closing tag name that never ends', '<tv></programme-and-more'],
  ['an unterminated CDATA section', '<tv><title><![CDATA[ never ] ]] ends'],
  ['a processing instruction that never ends', '<?xml version="1.0"'],
];

describe('createFastTokenizer', () => {
  it('finds the internals it replaces in the htmlparser2 installed', () => {
    expect(NATIVE_SKIP_AVAILABLE).toBe(true);
    expect(NAME_SKIP_AVAILABLE).toBe(true);
    const made = fast({} as Callbacks) as unknown as Record<string, unknown>;
    expect(made.fastForwardTo).not.toBe((Tokenizer.prototype as unknown as Record<string, unknown>).fastForwardTo);
  });

  it.each(documents)(
    '%s: the same callbacks as the plain tokenizer, whole and split at every few characters',
    (_, text) => {
      const expected = record(plain, [text]);
      expect(expected.length).toBeGreaterThan(1);
      expect(record(fast, [text])).toEqual(expected);
      for (const size of [1, 2, 3, 7, 64, 1000]) {
        expect(record(fast, split(text, size))).toEqual(record(plain, split(text, size)));
      }
    },
  );
});
