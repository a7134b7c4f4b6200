/**
 * What a playlist was found to write around its names, as an operator sees it: in
 * `import --json` (each playlist's `decoration`) and in `status --matches` (a line per playlist).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { runCli } from './helpers/cli.js';

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'marquee-cli-decoration-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const HOUR = 3_600_000;
const CHANNELS = ['CBC News Network', 'CTV', 'Global', 'TSN 1', 'Treehouse', 'History'];

describe('the decoration each playlist was found to use', () => {
  it('is in import --json and in status --matches', async () => {
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
    for (const [i, name] of CHANNELS.entries())
      xml.push(`<channel id="c${i}.ca"><display-name>${name}</display-name></channel>`);
    for (const [i] of CHANNELS.entries())
      xml.push(
        `<programme start="${formatXmltvTime(now)}" stop="${formatXmltvTime(now + HOUR)}" channel="c${i}.ca"><title>t</title></programme>`,
      );
    writeFileSync(join(cwd, 'guide.xml'), `${[...xml, '</tv>'].join('\n')}\n`);
    const names = CHANNELS.map((n, i) => `◉ CA ${n} ${i % 2 ? '1080' : 'HEVC NFT'}`);
    writeFileSync(
      join(cwd, 'tv.m3u'),
      `#EXTM3U\n${names.map((n, i) => `#EXTINF:-1,${n}\nhttp://s.example/${i}.ts\n`).join('')}`,
    );
    writeFileSync(
      join(cwd, 'marquee.yaml'),
      ['db: ./tv.db', 'livetv:', '  playlists: [./tv.m3u]', '  guides: [./guide.xml]'].join('\n'),
    );

    const imported = await runCli(['import', '--json'], { cwd });
    expect(imported.code).toBe(0);
    const report = JSON.parse(imported.stdout) as {
      livetv: { sources: { kind: string; decoration?: unknown }[]; matches: { guide: string | null }[] };
    };
    expect(report.livetv.matches.map((m) => m.guide)).toEqual(CHANNELS.map((_, i) => `c${i}.ca`));
    expect(report.livetv.sources[0]!.decoration).toEqual({
      names: 6,
      prefixes: [{ text: '◉ CA', names: 6 }],
      tags: [{ text: 'hevc', names: 3 }],
      country: 'ca',
      learned: { leading: [], trailing: ['nft'], bareResolutions: true, numbering: false },
    });

    const status = await runCli(['status', '--matches'], { cwd });
    expect(status.stdout).toMatch(
      /^decoration: \S+tv\.m3u \(6 names\): prefixes "◉ CA" \(6\); tags hevc \(3\); learned: after "nft", bare resolutions$/m,
    );
    const json = JSON.parse((await runCli(['status', '--matches', '--json'], { cwd })).stdout) as {
      matches: { decorations: { source: string; decoration: { country: string } }[] };
    };
    expect(json.matches.decorations).toHaveLength(1);
    expect(json.matches.decorations[0]!.decoration.country).toBe('ca');
  });
});
