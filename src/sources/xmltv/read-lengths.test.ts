/**
 * Names and programme texts past their limits (issue 48): a display name is cut with a warning at
 * its line, before the import matches or stores it; a programme's title, sub-title, category or
 * description is cut and counted (one warning per kind of text), whether the programme is read by
 * the plain fast path or as events, and in the parsing thread as in this one.
 */
import { describe, expect, it } from 'vitest';
import type { GuideChannel, Programme, SourceWarning } from '../records.js';
import { type ReadXmltvOptions, readXmltv } from './read.js';

async function collect(text: string, options: Partial<ReadXmltvOptions> = {}) {
  const channels: GuideChannel[] = [];
  const programmes: Programme[] = [];
  const warnings: SourceWarning[] = [];
  let cut = 0;
  for await (const batch of readXmltv([text], { source: 'g.xml', ...options })) {
    channels.push(...batch.channels);
    programmes.push(...batch.programmes);
    warnings.push(...batch.warnings);
    cut += batch.textsCut ?? 0;
  }
  return { channels, programmes, warnings, cut };
}

const programme = (body: string, start = '20260101000000 +0000') =>
  `<programme start="${start}" stop="20260101010000 +0000" channel="c">${body}</programme>`;

describe('names and programme texts past their limits', () => {
  it('cuts a display name of 100,000 characters to maxNameLength, with a warning at its line', async () => {
    const doc = `<tv>\n<channel id="c">\n<display-name>${'N'.repeat(100_000)}</display-name>\n<display-name>Short</display-name></channel>\n</tv>`;
    const { channels, warnings, cut } = await collect(doc);
    expect(channels[0]?.displayNames.map((n) => n.text)).toEqual(['N'.repeat(300), 'Short']);
    expect(warnings).toEqual([
      {
        source: 'g.xml',
        line: 3,
        message: '<display-name> is longer than 300 characters; cut (sources.maxNameLength)',
      },
    ]);
    expect(cut).toBe(0);
    const lower = await collect(doc, { limits: { maxNameLength: 40 } });
    expect(lower.channels[0]?.displayNames[0]?.text).toBe('N'.repeat(40));
  });

  it.each([
    ['the plain path', (s: string) => s],
    // An unknown attribute value without quotes sends the programme to the event path.
    ['the event path', (s: string) => s.replace('<programme ', '<programme x=1 ')],
  ])('cuts titles, sub-titles, categories and descriptions read by %s, and counts them', async (_, shape) => {
    const body =
      `<title>${'T'.repeat(350)}</title><sub-title>${'S'.repeat(301)}</sub-title>` +
      `<desc>${'D'.repeat(9000)}</desc><category>${'C'.repeat(400)}</category><category>News</category>`;
    const doc = `<tv>\n${shape(programme(body))}\n${shape(programme(body, '20260101010000 +0000').replace('01010000 +0000" channel', '01020000 +0000" channel'))}\n</tv>`;
    const { programmes, warnings, cut } = await collect(doc);
    expect(programmes).toHaveLength(2);
    for (const p of programmes) {
      expect(p.titles[0]?.text).toBe('T'.repeat(300));
      expect(p.subTitles[0]?.text).toBe('S'.repeat(300));
      expect(p.descriptions[0]?.text).toBe('D'.repeat(4000));
      expect(p.categories.map((c) => c.text)).toEqual(['C'.repeat(300), 'News']);
    }
    expect(cut).toBe(8);
    // Said once per kind of text, at its first line; the rest only counted.
    expect(warnings.map((w) => [w.line, w.message.replace(/: each .*$/, '')])).toEqual([
      [2, '<title> is longer than 300 characters; cut (livetv.maxProgrammeTitleLength)'],
      [2, '<sub-title> is longer than 300 characters; cut (livetv.maxProgrammeTitleLength)'],
      [2, '<desc> is longer than 4000 characters; cut (livetv.maxDescriptionLength)'],
      [2, '<category> is longer than 300 characters; cut (livetv.maxProgrammeTitleLength)'],
    ]);
  });

  it('takes the limits given, and cuts a text whose references make it look longer only when it is', async () => {
    const doc = `<tv>${programme(`<title>${'&amp;'.repeat(20)}</title><desc>${'x'.repeat(30)}</desc>`)}</tv>`;
    const roomy = await collect(doc, { limits: { maxTitleLength: 20, maxDescriptionLength: 30 } });
    expect(roomy.programmes[0]?.titles[0]?.text).toBe('&'.repeat(20));
    expect(roomy.cut).toBe(0);
    const tight = await collect(doc, { limits: { maxTitleLength: 10, maxDescriptionLength: 5 } });
    expect(tight.programmes[0]?.titles[0]?.text).toBe('&'.repeat(10));
    expect(tight.programmes[0]?.descriptions[0]?.text).toBe('xxxxx');
    expect(tight.cut).toBe(2);
  });
});
