/**
 * The reader over our tokenizer (the default) equals the reader over htmlparser2's (the plain path,
 * `tokenizer: 'htmlparser2'`): every batch, record, warning with its line, and error, on the
 * fixtures, the public guides of the shared corpus, and generated guides cut into random chunks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { realWorldFiles } from '../../../test/helpers/corpus.js';
import type { XmltvLimits } from './limits.js';
import { chooseTokenizer, type ReadXmltvOptions } from './read.js';
import { readOutcome } from './testing.js';

async function expectSame(chunks: readonly (Uint8Array | string)[], options: Partial<ReadXmltvOptions> = {}) {
  const plain = await readOutcome(chunks, 'htmlparser2', options);
  const ours = await readOutcome(chunks, 'marquee', options);
  expect(ours).toEqual(plain);
  return plain;
}

/** `whole` cut at the given positions (any order; repeats give empty chunks). */
function cut<T extends Uint8Array | string>(whole: T, positions: readonly number[]): T[] {
  const points = positions.map((p) => p % (whole.length + 1)).sort((a, b) => a - b);
  const out: T[] = [];
  let last = 0;
  for (const p of points) {
    out.push(whole.slice(last, p) as T);
    last = p;
  }
  out.push(whole.slice(last) as T);
  return out;
}

function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const fixtures = new URL('../../../test/fixtures/xmltv/', import.meta.url);
const files: Array<[string, Uint8Array]> = [
  ...readdirSync(fixtures).map((name): [string, Uint8Array] => [name, readFileSync(new URL(name, fixtures))]),
  // Real guides: the vendored excerpts, and every public guide of the corpus with MARQUEE_CORPUS.
  ...realWorldFiles('guides').map((path): [string, Uint8Array] => [`real ${basename(path)}`, readFileSync(path)]),
];

/** Small limits, so generated guides reach every one of them. */
const SMALL_LIMITS: Partial<XmltvLimits> = {
  maxDepth: 6,
  maxAttributeLength: 40,
  maxTextLength: 60,
  maxMarkupLength: 200,
  maxChannels: 5,
  maxProgrammes: 12,
  maxValuesPerList: 3,
  maxWarnings: 15,
};

describe('readXmltv: our tokenizer equals htmlparser2', () => {
  it('uses ours unless the option or MARQUEE_XMLTV_TOKENIZER=htmlparser2 asks for the plain path', () => {
    const before = process.env.MARQUEE_XMLTV_TOKENIZER;
    try {
      delete process.env.MARQUEE_XMLTV_TOKENIZER;
      expect(chooseTokenizer(undefined)).toBe('marquee');
      expect(chooseTokenizer('htmlparser2')).toBe('htmlparser2');
      process.env.MARQUEE_XMLTV_TOKENIZER = 'htmlparser2';
      expect(chooseTokenizer(undefined)).toBe('htmlparser2');
      expect(chooseTokenizer('marquee')).toBe('marquee');
    } finally {
      if (before === undefined) delete process.env.MARQUEE_XMLTV_TOKENIZER;
      else process.env.MARQUEE_XMLTV_TOKENIZER = before;
    }
  });

  it.each(files)('%s: whole, split at every few bytes, and truncated', async (_, bytes) => {
    const whole = await expectSame([bytes]);
    expect(whole.batches.length + (whole.error ? 1 : 0)).toBeGreaterThan(0);
    const sizes = bytes.length > 20_000 ? [1000, 4093] : [1, 2, 3, 7, 64];
    for (const size of sizes) await expectSame(split(bytes, size));
    for (const fraction of [0.1, 0.37, 0.5, 0.93])
      await expectSame([bytes.subarray(0, Math.floor(bytes.length * fraction))]);
    await expectSame([bytes], { limits: SMALL_LIMITS });
    await expectSame(split(bytes, 97), { limits: { maxMarkupLength: 64, maxAttributeLength: 16, maxTextLength: 20 } });
  });

  it('equals on the corpus guides cut at random bytes, with and without small limits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files.map(([, bytes]) => bytes)),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        async (bytes, positions, small) => {
          await expectSame(cut(bytes, positions), small ? { limits: SMALL_LIMITS } : {});
        },
      ),
      { numRuns: 80 },
    );
  });

  const word = fc.constantFrom('News', 'Café', 'Tom & Jerry', 'Größe', '日本語', '😀', 'a', '', '  ', 'x\r\ny', 'AT&T');
  const entity = fc.constantFrom(
    '&amp;',
    '&lt;',
    '&gt;',
    '&quot;',
    '&apos;',
    '&#233;',
    '&#xE9;',
    '&#x1F600;',
    '&#0;',
    '&#xD800;',
    '&#99999999;',
    '&nbsp;',
    '&lol;',
    '&',
    '&;',
    '&#;',
    '&#x;',
    '& amp;',
    `&${'n'.repeat(40)};`,
  );
  const text = fc
    .array(
      fc.oneof(word, entity, fc.constantFrom('<![CDATA[ <b>&amp; ]] ]]>', '<!-- note -->', '<?pi x?>', ' ', '\n')),
      {
        maxLength: 6,
      },
    )
    .map((parts) => parts.join(''));
  const quoted = (value: string) =>
    fc.constantFrom(
      `"${value.replaceAll('"', '&quot;')}"`,
      `'${value.replaceAll("'", '&apos;')}'`,
      value.replace(/[\s>"']/g, ''),
    );
  const ws = fc.constantFrom(' ', '\n', '\r\n', '\t', '  ', '\n    ');
  const time = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('20240301060000 +0000', '20240301070000 +0100', '20240301063000') },
    { weight: 1, arbitrary: fc.constantFrom('20240301', 'bad', '') },
  );
  const attribute = (name: string, value: fc.Arbitrary<string>) =>
    fc.tuple(ws, value.chain(quoted)).map(([space, v]) => `${space}${name}=${v}`);
  const element = (name: string) =>
    fc
      .tuple(fc.option(attribute('lang', fc.constantFrom('en', 'de', ''))), text, fc.boolean())
      .map(([lang, body, selfClosing]) =>
        selfClosing ? `<${name}${lang ?? ''}/>` : `<${name}${lang ?? ''}>${body}</${name}>`,
      );
  const channelId = fc.constantFrom('one', 'two', 'c.3', 'one ');
  const channel = fc
    .tuple(attribute('id', channelId), fc.array(element('display-name'), { maxLength: 2 }), ws)
    .map(([id, names, space]) => `<channel${id}>${space}${names.join(space)}<icon src="http://x/i.png" /></channel>`);
  const programme = fc
    .tuple(
      attribute('start', time),
      fc.option(attribute('stop', time)),
      attribute('channel', channelId),
      fc.oneof({ weight: 9, arbitrary: element('title') }, { weight: 1, arbitrary: fc.constant('') }),
      fc.array(
        fc.oneof(
          element('title'),
          element('sub-title'),
          element('desc'),
          element('category'),
          fc.constant('<episode-num system="xmltv_ns">1.2.0/1</episode-num>'),
          fc.constant('<episode-num system="onscreen">S01E02</episode-num>'),
          fc.constant('<rating system="MPAA"><value>PG</value></rating>'),
          fc.constant('<credits><actor role="x">A B</actor><director>D</director></credits>'),
          fc.constant('<unknown a="1"><deeper><deepest>t</deepest></deeper></unknown>'),
          fc.constant('<date>2024</date><new/><previously-shown start="20200101"/>'),
          fc.constant('<title>unclosed'),
          fc.constant('</desc>'),
          // Shapes the plain-programme reader takes, or must leave to the events (plain-programme.ts).
          fc.constantFrom(
            '<star-rating system="imdb"><value>7/10</value></star-rating>',
            '<video><aspect>16:9</aspect><quality>HDTV</quality></video>',
            '<length units="minutes">30</length>',
            '<icon src=" http://x/p.png " width="10"/>',
            '<icon src=""/><icon src="b&amp;c"/>',
            '<rating system=""><value>R</value><icon src="r.png"/></rating>',
            '<rating system="A"/><rating><value>PG</value></rating>',
            '<credits><director>D &amp; E</director><actor role="x">A</actor><value>v</value></credits>',
            '<credits><programme start="x"/><writer>W</writer></credits>',
            '<rating><programme/></rating>',
            '<title lang = "en" >Spaced</title >',
            '<title lang="en" lang="">two langs</title>',
            '<episode-num>1</episode-num><episode-num system="">x</episode-num>',
            '<new></new><previously-shown/>',
            '<title>a<b>c</b></title>',
            '<video><aspect><deep>x</deep></aspect></video>',
            '<sub-title lang="en"/>',
            '<desc>  </desc>',
            '<country>US</countryx>',
            '<icon src="x" / >',
            '<category lang="en">A &bogus; B</category>',
            '<title lang="&bogus;">t</title>',
            '<channel id="inside"/>',
          ),
        ),
        { maxLength: 6 },
      ),
      ws,
    )
    .map(
      ([start, stop, ch, title, children, space]) =>
        `<programme${start}${stop ?? ''}${ch}>${title}${children.join(space)}</programme>`,
    )
    .chain((whole) =>
      fc.constantFrom(
        whole,
        whole,
        whole.replace('<programme', '<programme start="20240301050000 +0000"'),
        whole.replace('</programme>', '</programme >'),
        whole.replace(/>$/, '/>').replace('</programme/>', '<programme/>'),
      ),
    );
  const prolog = fc.constantFrom(
    '',
    '',
    '',
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n',
    '\uFEFF<?xml version="1.0"?>\r\n',
    '<!DOCTYPE tv SYSTEM "xmltv.dtd">\n',
    '<!DOCTYPE tv [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;">\n]>\n',
    '<!DOCTYPE tv [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
    '<!-- a comment -->\n',
    'garbage',
  );
  const guide = fc
    .tuple(
      prolog,
      attribute('generator-info-name', fc.constantFrom('gen', 'x&amp;y')),
      fc.array(fc.oneof({ weight: 1, arbitrary: channel }, { weight: 3, arbitrary: programme }), {
        minLength: 1,
        maxLength: 20,
      }),
      ws,
      fc.constantFrom('</tv>\n', '</tv>', '', '</tv><tv><channel id="late"/></tv>', '</tv>trailing'),
    )
    .map(([head, info, records, space, tail]) => `${head}<tv${info}>${space}${records.join(space)}${space}${tail}`);

  it('equals on generated guides cut at random bytes and truncated anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        guide,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        fc.boolean(),
        async (document, positions, truncate, small, asBytes) => {
          let bytes: Uint8Array = new TextEncoder().encode(document);
          if (truncate !== null) bytes = bytes.subarray(0, truncate % (bytes.length + 1));
          const options = small ? { limits: SMALL_LIMITS } : {};
          if (asBytes) await expectSame(cut(bytes, positions), options);
          else await expectSame(cut(new TextDecoder().decode(bytes), positions), options);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('equals on huge attributes, text, comments and nesting that break the limits', async () => {
    const huge = 'x'.repeat(300_000);
    const cases = [
      `<tv><channel id="${huge}"/></tv>`,
      `<tv><channel id=${huge}/></tv>`,
      `<tv><programme start="20240301060000 +0000" channel="a"><title>${huge}</title></programme></tv>`,
      `<tv><programme start="20240301060000 +0000" channel="a"><desc><![CDATA[${huge}]]></desc></programme></tv>`,
      `<tv><!-- ${huge} --></tv>`,
      `<tv><${huge}/></tv>`,
      `<tv>${'<a>'.repeat(100)}</tv>`,
      `<!DOCTYPE tv [${huge}]><tv/>`,
    ];
    const limits = { maxAttributeLength: 1000, maxTextLength: 1000, maxMarkupLength: 5000, maxDepth: 50 };
    for (const text of cases) {
      const bytes = new TextEncoder().encode(text);
      for (const size of [1000, 4096, 65_536]) {
        await expectSame(split(bytes, size), { limits });
        await expectSame(split(bytes, size));
      }
    }
  });
});
