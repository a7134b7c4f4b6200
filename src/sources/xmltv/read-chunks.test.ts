import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GuideChannel, Programme, SourceWarning } from '../records.js';
import { readXmltv } from './read.js';

const fixtureBytes = (name: string) => readFileSync(new URL(`../../../test/fixtures/xmltv/${name}`, import.meta.url));

async function collect(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, source = 'g.xml') {
  const channels: GuideChannel[] = [];
  const programmes: Programme[] = [];
  const warnings: SourceWarning[] = [];
  let batches = 0;
  for await (const batch of readXmltv(chunks, { source })) {
    batches++;
    channels.push(...batch.channels);
    programmes.push(...batch.programmes);
    warnings.push(...batch.warnings);
  }
  return { channels, programmes, warnings, batches };
}

function* split<T extends Uint8Array | string>(whole: T, size: number): Generator<T> {
  for (let i = 0; i < whole.length; i += size) yield whole.slice(i, i + size) as T;
}

/** Raw multi-byte characters (2, 3 and 4 bytes), entities and CDATA, in text and attributes. */
const MIXED = `<?xml version="1.0" encoding="UTF-8"?>
<tv>
  <channel id="zdf.de"><display-name lang="de">ZDF – Zweites Deutsches Fernsehen</display-name></channel>
  <programme start="20240301060000 +0100" stop="20240301070000 +0100" channel="zdf.de">
    <title lang="de">Frühstück 😀 &amp; Café &#x263A;</title>
    <desc>Größe &lt; 5 <![CDATA[& <raw>]]> AT&T &nbsp; 日本語</desc>
  </programme>
  <programme start="20240301070000 +0100" channel="zdf.de"><title>Ohne Ende</title></programme>
  <programme start="20240301080000 +0100" stop="20240301090000 +0100" channel="zdf.de"><title>Nächste</title></programme>
</tv>
`;

describe('readXmltv across chunk boundaries', () => {
  const documents: Array<[string, Uint8Array]> = [
    ['mixed', new TextEncoder().encode(MIXED)],
    ['well-formed.xml', fixtureBytes('well-formed.xml')],
    ['entities.xml', fixtureBytes('entities.xml')],
    ['malformed.xml', fixtureBytes('malformed.xml')],
    ['latin1.xml', fixtureBytes('latin1.xml')],
    ['truncated.xml', fixtureBytes('truncated.xml')],
    ['utf-16', new Uint8Array(Buffer.from(`\uFEFF${MIXED.replace('UTF-8', 'UTF-16')}`, 'utf16le'))],
    ['utf-8 with a byte-order mark', new TextEncoder().encode(`\uFEFF${MIXED}`)],
    // A lone continuation byte, a cut 3-byte sequence and an overlong form inside a title.
    [
      'invalid utf-8',
      Buffer.from(MIXED.replace('Ohne Ende', 'Oh\u0000ne\u0001 En\u0002de')).map((b) =>
        b === 0 ? 0x80 : b === 1 ? 0xe2 : b === 2 ? 0xc0 : b,
      ),
    ],
  ];

  it.each(documents)('%s gives the same records and warnings split at every few bytes', async (_, bytes) => {
    const whole = await collect([bytes]);
    expect(whole.programmes.length).toBeGreaterThan(0);
    for (const size of [1, 2, 3, 5, 7, 13, 64, 1000]) {
      const pieces = await collect(split(bytes, size));
      expect({ size, ...pieces, batches: 0 }).toEqual({ size, ...whole, batches: 0 });
    }
  });

  it.each(documents.filter(([name]) => !['latin1.xml', 'utf-16', 'invalid utf-8'].includes(name)))(
    '%s gives the same records as string chunks',
    async (_, bytes) => {
      const text = new TextDecoder().decode(bytes);
      const whole = await collect([bytes]);
      for (const size of [1, 4, 9, 100]) {
        const pieces = await collect(split(text, size));
        expect({ ...pieces, batches: 0 }).toEqual({ ...whole, batches: 0 });
      }
    },
  );

  it('decodes a chunk larger than its 32 KiB decoding pieces the same, with characters cut at the piece edges', async () => {
    // A title of 4-byte characters laid across the 32 KiB edge at each of its four byte offsets.
    for (const shift of [0, 1, 2, 3]) {
      const head = '<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n<!-- ';
      const programme = `<programme start="20240301060000 +0000" stop="20240301070000 +0000" channel="c"><title>${'😀'.repeat(40)}ü</title></programme>\n`;
      // The edge falls 10 characters into the first title, `shift` bytes into a character.
      const intoTitle = Buffer.byteLength(programme.slice(0, programme.indexOf('😀'))) + 40 + shift;
      const padding = 32 * 1024 - Buffer.byteLength(head) - ' -->\n'.length - intoTitle;
      const bytes = new TextEncoder().encode(`${head}${'x'.repeat(padding)} -->\n${programme.repeat(3)}</tv>\n`);
      const whole = await collect([bytes]);
      expect(whole.programmes.map((p) => p.titles[0]?.text)).toEqual(Array(3).fill(`${'😀'.repeat(40)}ü`));
      expect(whole.warnings).toEqual([]);
      expect({ ...(await collect(split(bytes, 1000))), batches: 0 }).toEqual({ ...whole, batches: 0 });
    }
  });

  it('replaces invalid UTF-8 bytes as TextDecoder does, whatever the chunking', async () => {
    const bytes = documents.find(([name]) => name === 'invalid utf-8')![1];
    const expected = new TextDecoder().decode(
      new Uint8Array([0x4f, 0x68, 0x80, 0x6e, 0x65, 0xe2, 0x20, 0x45, 0x6e, 0xc0, 0x64, 0x65]),
    );
    for (const size of [1, 2, 3, 1000]) {
      const { programmes } = await collect(split(bytes, size));
      expect(programmes[1]?.titles[0]?.text).toBe(expected);
    }
  });

  it.each([
    ['UTF-8', new TextEncoder().encode(MIXED)],
    ['UTF-8 with a byte-order mark', new TextEncoder().encode(`\uFEFF${MIXED}`)],
    ['UTF-16', new Uint8Array(Buffer.from(`\uFEFF${MIXED}`, 'utf16le'))],
  ])('decodes the mixed document right in %s', async (_, bytes) => {
    const { programmes, warnings } = await collect(split(bytes, 1));
    expect(programmes.map((p) => [p.titles[0]?.text, p.descriptions[0]?.text, p.stop])).toEqual([
      ['Frühstück 😀 & Café ☺', 'Größe < 5 & <raw> AT&T &nbsp; 日本語', Date.UTC(2024, 2, 1, 6)],
      ['Ohne Ende', undefined, Date.UTC(2024, 2, 1, 7)],
      ['Nächste', undefined, Date.UTC(2024, 2, 1, 8)],
    ]);
    expect(warnings.map((w) => [w.line, w.message.slice(0, 26)])).toEqual([
      [6, 'an unescaped & is kept as '],
      [6, 'unknown entity &nbsp; kept'],
    ]);
  });
});

describe('readXmltv on a generated guide', () => {
  it('round-trips a few thousand programmes streamed from a file, in many batches', async () => {
    const channelCount = 40;
    const perChannel = 80;
    const base = Date.UTC(2024, 2, 1);
    const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const stamp = (ms: number) => {
      const d = new Date(ms + 3_600_000); // written in +0100
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00 +0100`;
    };
    const expectedChannels: GuideChannel[] = [];
    const expected: Array<Partial<Programme>> = [];
    let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="round-trip">\n';
    let line = 3;
    for (let c = 0; c < channelCount; c++) {
      const id = `ch${c}.example`;
      const name = `Channel ${c} & Friends`;
      xml += `<channel id="${id}"><display-name lang="en">${escapeXml(name)}</display-name></channel>\n`;
      expectedChannels.push({ id, displayNames: [{ text: name, lang: 'en' }], icon: undefined, url: undefined });
      line++;
    }
    for (let c = 0; c < channelCount; c++) {
      for (let i = 0; i < perChannel; i++) {
        const start = base + i * 1_800_000;
        const title = `Show <${c}/${i}> “Ünïcode” & more`;
        const desc = `Episode ${i} of channel ${c}.\nSecond line with 😀.`;
        xml += `<programme start="${stamp(start)}" stop="${stamp(start + 1_800_000)}" channel="ch${c}.example">\n`;
        xml += `  <title lang="en">${escapeXml(title)}</title>\n  <desc lang="en">${escapeXml(desc)}</desc>\n`;
        xml += `  <episode-num system="xmltv_ns">${c % 5}.${i}.</episode-num>\n</programme>\n`;
        expected.push({
          channelId: `ch${c}.example`,
          start,
          stop: start + 1_800_000,
          titles: [{ text: title, lang: 'en' }],
          descriptions: [{ text: desc, lang: 'en' }],
          season: (c % 5) + 1,
          episode: i + 1,
          line,
        });
        line += 6;
      }
    }
    xml += '</tv>\n';
    const dir = await mkdtemp(join(tmpdir(), 'marquee-xmltv-'));
    try {
      const path = join(dir, 'guide.xml');
      await writeFile(path, xml);
      const { channels, programmes, warnings, batches } = await collect(
        createReadStream(path, { highWaterMark: 16 * 1024 }),
        path,
      );
      expect(warnings).toEqual([]);
      expect(channels).toEqual(expectedChannels);
      expect(programmes).toHaveLength(channelCount * perChannel);
      expect(programmes.map((p) => ({ ...p }))).toMatchObject(expected);
      expect(batches).toBeGreaterThan(Math.floor(xml.length / (16 * 1024)) - 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
