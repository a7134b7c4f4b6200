import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isMarqueeError } from '../../errors.js';
import type { Programme, SourceWarning } from '../records.js';
import { type ReadXmltvOptions, readXmltv } from './read.js';

const fixture = (name: string) => new URL(`../../../test/fixtures/xmltv/${name}`, import.meta.url);

async function collect(chunks: AsyncIterable<Uint8Array | string> | Iterable<string>, options: ReadXmltvOptions) {
  const programmes: Programme[] = [];
  const warnings: SourceWarning[] = [];
  let channels = 0;
  for await (const batch of readXmltv(chunks, options)) {
    channels += batch.channels.length;
    programmes.push(...batch.programmes);
    warnings.push(...batch.warnings);
  }
  return { channels, programmes, warnings };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the read to fail');
}

/** An endless source that counts how much of it the reader pulled before giving up. */
function endless(head: string, filler: string) {
  const pulled = { chunks: 0 };
  async function* chunks() {
    yield head;
    for (;;) {
      pulled.chunks++;
      yield filler;
    }
  }
  return { chunks: chunks(), pulled };
}

const programme = (inner: string, attributes = '') =>
  `<programme start="20240301060000 +0000" stop="20240301070000 +0000" channel="one"${attributes}>${inner}</programme>`;

describe('entity expansion and external entities', () => {
  it('never expands a billion-laughs DTD: the reference stays literal text', async () => {
    const started = performance.now();
    const { programmes, warnings } = await collect(createReadStream(fixture('billion-laughs.xml')), {
      source: 'billion-laughs.xml',
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(programmes[0]?.titles).toEqual([{ text: '&lol9;', lang: undefined }]);
    expect(programmes[0]?.descriptions[0]?.text).toBe('&lol9;&lol9;&lol9;');
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [2, expect.stringContaining('internal subset (entities): it is ignored and no entity is ever expanded')],
      [16, expect.stringContaining('unknown entity &lol9; kept as written')],
    ]);
  });

  it('refuses the classic billion-laughs document (root <lolz>) as not XMLTV', async () => {
    const error = await failure(() =>
      collect(createReadStream(fixture('billion-laughs-classic.xml')), { source: 'b.xml' }),
    );
    expect(isMarqueeError(error, 'SOURCE_INVALID')).toBe(true);
    expect(error.message).toMatch(/^b\.xml:10: the root element is <lolz>/);
  });

  it('never reads external entities: no file content, no request made', async () => {
    let requests = 0;
    const server = createServer((_, response) => {
      requests++;
      response.end('<!ENTITY leaked "LEAKED">');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const doc = `<?xml version="1.0"?>
<!DOCTYPE tv [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY remote SYSTEM "http://127.0.0.1:${port}/entity">
  <!ENTITY % dtd SYSTEM "http://127.0.0.1:${port}/dtd"> %dtd;
]>
<tv>${programme('<title>&xxe;</title><desc>&remote;&leaked;</desc>')}</tv>`;
      const { programmes, warnings } = await collect([doc], { source: 'xxe.xml' });
      expect(programmes[0]?.titles[0]?.text).toBe('&xxe;');
      expect(programmes[0]?.descriptions[0]?.text).toBe('&remote;&leaked;');
      expect(warnings[0]?.message).toContain('internal subset');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the external-entity fixture the same way', async () => {
    const { programmes } = await collect(createReadStream(fixture('external-entity.xml')), { source: 'x.xml' });
    expect(programmes[0]?.titles[0]?.text).toBe('&xxe;');
  });
});

describe('size and depth limits', () => {
  it('refuses deep nesting at maxDepth, without reading the rest', async () => {
    const { chunks, pulled } = endless('<tv>', '<a>'.repeat(1000));
    const error = await failure(() => collect(chunks, { source: 'deep.xml' }));
    expect(isMarqueeError(error, 'SOURCE_INVALID')).toBe(true);
    expect(error.message).toBe('deep.xml:1: elements are nested deeper than 64 levels');
    expect(pulled.chunks).toBe(1);
  });

  it('refuses an endless attribute at maxAttributeLength, without reading further', async () => {
    const { chunks, pulled } = endless(`<tv>\n<programme channel="`, 'x'.repeat(16 * 1024));
    const error = await failure(() => collect(chunks, { source: 'attr.xml' }));
    expect(isMarqueeError(error, 'SOURCE_TOO_LARGE')).toBe(true);
    expect(error.message).toBe('attr.xml:2: an attribute of <programme> is longer than 65536 characters');
    expect(pulled.chunks).toBe(5);
  });

  it('refuses one attribute longer than maxAttributeLength', async () => {
    const doc = `<tv>\n${programme('<title>t</title>', ` x="${'y'.repeat(70_000)}"`)}</tv>`;
    const error = await failure(() => collect([doc], { source: 'attr.xml' }));
    expect(isMarqueeError(error, 'SOURCE_TOO_LARGE')).toBe(true);
    expect(error.message).toBe('attr.xml:2: an attribute of <programme> is longer than 65536 characters');
  });

  it.each([
    ['a comment', '<tv><!--', 'comment comment '],
    ['a CDATA section', `<tv>${'<programme><title><![CDATA['}`, 'cdata cdata '],
    ['a tag name', '<tv><', 'abcdefgh'],
  ])('refuses endless %s', async (_, head, filler) => {
    const { chunks, pulled } = endless(head, filler.repeat(1024));
    const error = await failure(() => collect(chunks, { source: 'm.xml', limits: { maxMarkupLength: 100_000 } }));
    expect(isMarqueeError(error, 'SOURCE_TOO_LARGE')).toBe(true);
    expect(pulled.chunks).toBeLessThan(20);
  });

  it('truncates a text longer than maxTextLength, with a warning, and keeps the record', async () => {
    const doc = `<tv>\n${programme(`<title>Long</title>\n<credits><actor>${'d'.repeat(5000)}</actor></credits>`)}</tv>`;
    const { programmes, warnings } = await collect([doc], { source: 't.xml', limits: { maxTextLength: 1000 } });
    expect(programmes[0]?.actors[0]).toBe('d'.repeat(1000));
    expect(warnings).toEqual([
      { source: 't.xml', line: 3, message: 'text of <actor> is longer than 1000 characters; truncated' },
    ]);
  });

  it('keeps maxValuesPerList values of one kind per record', async () => {
    const titles = Array.from({ length: 30 }, (_, i) => `<title>t${i}</title>`).join('');
    const { programmes, warnings } = await collect([`<tv>${programme(titles)}</tv>`], {
      source: 'l.xml',
      limits: { maxValuesPerList: 10 },
    });
    expect(programmes[0]?.titles.map((t) => t.text)).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`));
    expect(warnings.map((w) => w.message)).toEqual(['more than 10 <title> values; the rest are dropped']);
  });

  it('refuses more programmes or channels than the limits', async () => {
    const many = Array.from({ length: 5 }, (_, i) =>
      programme(`<title>${i}</title>`).replace('channel="one"', `channel="c${i}"`),
    );
    const tooManyProgrammes = await failure(() =>
      collect([`<tv>${many.join('\n')}</tv>`], { source: 'p.xml', limits: { maxProgrammes: 3 } }),
    );
    expect(isMarqueeError(tooManyProgrammes, 'SOURCE_TOO_LARGE')).toBe(true);
    expect(tooManyProgrammes.message).toBe('p.xml:4: more than 3 programmes');
    const channels = Array.from({ length: 5 }, (_, i) => `<channel id="c${i}"/>`).join('\n');
    const tooManyChannels = await failure(() =>
      collect([`<tv>${channels}</tv>`], { source: 'c.xml', limits: { maxChannels: 3 } }),
    );
    expect(isMarqueeError(tooManyChannels, 'SOURCE_TOO_LARGE')).toBe(true);
    expect(tooManyChannels.message).toBe('c.xml:4: more than 3 channels (sources.maxGuideChannels)');
  });

  it('refuses nonsensical limits and shifts as settings errors', async () => {
    const badLimit = await failure(() => collect(['<tv/>'], { source: 's.xml', limits: { maxDepth: 0 } }));
    expect(isMarqueeError(badLimit, 'INVALID_SETTINGS')).toBe(true);
    const badShift = await failure(() => collect(['<tv/>'], { source: 's.xml', shiftHours: Number.POSITIVE_INFINITY }));
    expect(isMarqueeError(badShift, 'INVALID_SETTINGS')).toBe(true);
  });
});
