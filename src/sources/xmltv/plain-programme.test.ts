/**
 * The plain-programme reader (the reader's fast path for a whole `<programme>`) against the plain
 * path, htmlparser2's tokenizer, which has no fast path: every record, warning and error equal, for
 * every shape of child it takes or leaves to the events, alone, in pairs and in random sequences.
 * read-tokenizers.test.ts does the same over real and generated guides cut at random.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { XmltvLimits } from './limits.js';
import { PlainProgrammeReader } from './plain-programme.js';
import { readOutcome } from './testing.js';

/** How many programmes the fast path read whole while `action` ran. */
async function countPlain(action: () => Promise<unknown>): Promise<number> {
  const read = PlainProgrammeReader.prototype.read;
  let whole = 0;
  const spy = vi.spyOn(PlainProgrammeReader.prototype, 'read').mockImplementation(function (
    this: PlainProgrammeReader,
    ...args
  ) {
    const end = read.apply(this, args);
    if (end >= 0) whole++;
    return end;
  });
  try {
    await action();
  } finally {
    spy.mockRestore();
  }
  return whole;
}

async function expectSame(text: string, limits?: Partial<XmltvLimits>) {
  const options = limits ? { limits } : {};
  const plain = await readOutcome([text], 'htmlparser2', options);
  const ours = await readOutcome([text], 'marquee', options);
  expect(ours).toEqual(plain);
  return ours;
}

const SMALL: Partial<XmltvLimits> = { maxTextLength: 12, maxValuesPerList: 2, maxAttributeLength: 24, maxDepth: 4 };

/** Children read whole. */
const TAKEN = [
  '<title lang="en">Tom &amp; Jerry &#233;</title>',
  "<title lang='de'>Einzeln</title>",
  '<title lang="en" >Spaced</title>',
  '<sub-title lang="en">Part 2</sub-title>',
  '<sub-title lang="en"/>',
  '<desc lang="en">  A long\n  description  </desc>',
  '<desc>  </desc>',
  '<category lang="en">Drama</category><category>Crime</category>',
  '<episode-num system="xmltv_ns">1.4.0/1</episode-num>',
  '<episode-num system="onscreen">S02E05</episode-num>',
  '<episode-num>7</episode-num><episode-num system="">x</episode-num>',
  '<episode-num system="dd_progid">EP123</episode-num>',
  '<date>20240301</date>',
  '<icon src=" http://x/p.png " width="10"/>',
  '<icon src=""/><icon src="b&amp;c"/>',
  '<icon src="a">text</icon>',
  '<icon src="http://example.com/a/long/path/poster.png"/>', // over the small attribute limit
  '<desc lang="en">Longer than the small text limit</desc>',
  '<category>A</category><category>B</category><category>C</category>', // over the small list limit
  '<rating system="MPAA"><value>PG</value></rating>',
  '<rating system=""><value>R</value><icon src="r.png"/></rating>',
  '<rating system="A"/><rating><value>PG-13</value></rating>',
  '<rating system="VCHIP">\n      <value>TV-G</value>\n    </rating>',
  '<star-rating system="imdb"><value>7/10</value></star-rating><star-rating><value>3/5</value></star-rating>',
  '<credits><director>D &amp; E</director><actor role="x">A</actor><actor>B</actor><value>v</value></credits>',
  '<credits><programme start="x"/><writer>W</writer></credits>',
  '<video><aspect>16:9</aspect><quality>HDTV</quality></video><audio><stereo>stereo</stereo></audio>',
  '<length units="minutes">30</length><country>US</country>',
  '<new></new><previously-shown start="20200101"/>',
  '<new/>',
  '<premiere>First</premiere><subtitles type="teletext"/>',
];

/** Children that send the programme to the events (each for its own reason). */
const LEFT = [
  '<title>a<b>c</b></title>', // markup inside kept text
  '<video><aspect><deep>x</deep></aspect></video>', // three levels
  '<country>US</countryx>', // an end tag that is not its own
  '<icon src="x" / >', // a slash not followed by >
  '<icon src=x />', // an unquoted value
  '<category lang="en">A &bogus; B</category>', // a reference kept as written warns
  '<title lang="&bogus;">t</title>',
  '<channel id="inside"/>', // a record inside the record
  '<rating><programme/></rating>',
  '<desc><![CDATA[ <b>bold</b> ]]></desc>',
  '<!-- comment -->',
  '<?pi x?>',
  '< title>spaced</title>',
  '<title>unclosed',
  '</desc>',
  '<desc>x</desc >',
  '<title lang = "en">Spaced</title>', // whitespace around =
];

const programme = (children: string, head = 'start="20240301060000 +0000" stop="20240301070000 +0000" channel="c"') =>
  `<programme ${head}>\n    <title lang="en">Title</title>\n    ${children}\n  </programme>`;

const guide = (...programmes: string[]) =>
  `<?xml version="1.0"?>\n<tv>\n  <channel id="c"><display-name>C</display-name></channel>\n  ${programmes.join('\n  ')}\n</tv>\n`;

describe('the plain-programme reader equals the events', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(TAKEN)('reads %s whole, as the events do', async (child) => {
    const text = guide(programme(child), programme(`${child}\n${child}`), programme(''));
    expect(await countPlain(() => expectSame(text))).toBe(3);
    await expectSame(text, SMALL);
  });

  it.each(LEFT)('leaves %s to the events, with the same result', async (child) => {
    const text = guide(programme(''), programme(child), programme(''));
    expect(await countPlain(() => expectSame(text))).toBe(2);
    await expectSame(text, SMALL);
  });

  it('takes the programme attributes as the events do', async () => {
    const heads = [
      "start='20240301060000 +0000' stop='20240301070000 +0000' channel='c'",
      'channel="c" start="20240301060000" stop="20240301070000" start="20240301050000"',
      'start="20240301060000 +0000"stop="20240301070000 +0000"\n\tchannel="c" extra="&bogus;"',
      'start="20240301060000 +0000" channel="c&amp;d"',
      'start="20240301060000 +0000" channel=" c "',
      'start="bad" channel="c"',
      'channel="c"',
      'start="20240301060000 +0000"',
      'start="20240301060000 +0000" channel="&bogus;"',
      'start="20240301060000 +0000" channel="c" stop="20240301050000 +0000"',
    ];
    for (const head of heads) {
      await expectSame(guide(programme('', head), programme('', 'start="20240301080000 +0000" channel="c"')));
      await expectSame(guide(programme('', head)), SMALL);
    }
  });

  it('is not used where the events must read the programme', async () => {
    const cases = [
      '<tv><programme start="20240301060000" channel="c"/></tv>', // self-closing
      '<tv><programme>\n<title>T</title></programme ></tv>', // spaced end tag
      '<programme start="20240301060000" channel="c"><title>T</title></programme><tv/>', // before the root
      '<tv></tv><programme start="20240301060000" channel="c"><title>T</title></programme>', // after it
      '<tv><channel id="c"><programme start="20240301060000" channel="c"><title>T</title></programme></channel></tv>',
      '<tv><programmes><title>T</title></programmes></tv>',
    ];
    for (const text of cases) {
      expect(await countPlain(() => expectSame(text))).toBe(0);
    }
    // Too deep for the limit: the events report it.
    const deep = '<tv><programme start="20240301060000" channel="c"><title>T</title></programme></tv>';
    expect(await countPlain(() => expectSame(deep, { maxDepth: 2 }))).toBe(0);
    expect(await countPlain(() => expectSame(deep, { maxDepth: 3 }))).toBe(0);
  });

  it('equals the events on random sequences of every shape, with default and small limits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(...TAKEN, ...TAKEN, ...LEFT), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom('\n    ', '', ' '),
        fc.boolean(),
        async (records, space, small) => {
          const text = guide(...records.map((children) => programme(children.join(space))));
          await expectSame(text, small ? SMALL : undefined);
        },
      ),
      { numRuns: 400 },
    );
  });
});
