/**
 * The review list as a new user meets it (issue 46): `marquee status --matches` and
 * `import --json`'s `livetv.matches` show every guide channel by its id and display name; the
 * `pin it` line pins a guide channel only when one leads clearly, and otherwise offers `null` and
 * names the candidates (a three-way tie of `Euronews` channels, a weak 0.08); a guide that fails as
 * a whole keeps its channels for review, so the ids `guideOverrides` needs are there, and the pin
 * offered makes it give programmes on the next import.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../src/sources/xmltv/index.js';
import { runCli } from './helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-review-list-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;

/** A guide of these channels (id → display names), with programmes around now. */
function guide(channels: Record<string, string[]>): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv>'];
  for (const [id, names] of Object.entries(channels)) {
    out.push(`<channel id="${id}">${names.map((n) => `<display-name>${n}</display-name>`).join('')}</channel>`);
  }
  const start = Math.floor(Date.now() / HOUR) * HOUR;
  for (const id of Object.keys(channels)) {
    for (let h = -4; h < 8; h += 2) {
      out.push(
        `<programme start="${formatXmltvTime(start + h * HOUR)}" stop="${formatXmltvTime(start + (h + 2) * HOUR)}" channel="${id}"><title>${id}</title></programme>`,
      );
    }
  }
  return [...out, '</tv>', ''].join('\n');
}

const playlist = (names: readonly string[]) =>
  `#EXTM3U\n${names.map((n, i) => `#EXTINF:-1,${n}\nhttp://streams.example/${i}.ts\n`).join('')}`;

function project(name: string, files: Record<string, string>): string {
  const cwd = join(dir, name);
  mkdirSync(cwd, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(cwd, file), text);
  return cwd;
}

/** The names a guide site gives Euronews in three languages (the labelled dev set's France), and EnerGeek's channels. */
const CHANNELS = {
  g3: ['Euronews Italiano', 'Euronews', 'euronews it', 'Euronews I', 'euronews italiano'],
  g22: ['Euronews Français', 'Euronews', 'Euronews F', 'EURONEWS', 'Euronews FR', 'euronews français'],
  g37: ['Euronews Portuguese', 'Euronews', 'euronews português'],
  'EnerGeek Retro': ['EnerGeek Retro'],
  'EnerGeek Radio TV': ['EnerGeek Radio TV'],
};

interface Review {
  name: string;
  clear: boolean;
  pin: string;
  choices: string[];
  candidates: { id: string; name?: string; score: number }[];
}

describe('status --matches', () => {
  it('shows each guide channel with its name, and pins only a clear lead', async () => {
    const cwd = project('pins', {
      'guide.xml': guide(CHANNELS),
      'tv.m3u': playlist(['Channels TV', 'Euronews French', 'EnerGeek Radio (1080p)']),
    });
    const imported = await runCli(['import', '--db', 'tv.db', '--playlist', 'tv.m3u', '--epg', 'guide.xml', '--json'], {
      cwd,
    });
    expect(imported.code, imported.stderr).toBe(0);
    const matches = JSON.parse(imported.stdout).livetv.matches as {
      name: string;
      guide: string | null;
      guideName: string | null;
      candidates: { id: string; name?: string }[];
    }[];
    // import --json names them as status does.
    const radio = matches.find((m) => m.name === 'EnerGeek Radio (1080p)')!;
    expect([radio.guide, radio.guideName]).toEqual(['EnerGeek Radio TV', 'EnerGeek Radio TV']);
    const euronews = matches.find((m) => m.name === 'Euronews French')!;
    expect(euronews.candidates.map((c) => [c.id, c.name])).toEqual([
      ['g3', 'Euronews Italiano'],
      ['g22', 'Euronews Français'],
      ['g37', 'Euronews Portuguese'],
    ]);

    const status = await runCli(['status', '--db', 'tv.db', '--matches'], { cwd });
    expect(status.code).toBe(0);
    const text = status.stdout.slice(status.stdout.indexOf('matches: '));
    // A weak score is shown, never offered.
    expect(text).toContain(
      [
        'NONE   "Channels TV" (mq-tv:channels-tv)',
        '         closest: EnerGeek Radio TV "EnerGeek Radio TV" 0.08',
        '         pin it:  livetv.guideOverrides: { "Channels TV": null }   (null: it has no guide; none of these is close enough to offer)',
      ].join('\n'),
    );
    // A tie: no pin, the three named as choices.
    expect(text).toMatch(
      /^ {9}closest: g3 "Euronews Italiano" (0\.\d\d), g22 "Euronews Français" \1, g37 "Euronews Portuguese" \1$/m,
    );
    expect(text).toContain(
      '         pin it:  livetv.guideOverrides: { "Euronews French": null }   (null: it has no guide; or one of "g3", "g22", "g37": none leads clearly)',
    );
    // A clear lead is pinned.
    expect(text).toMatch(
      /^REVIEW "EnerGeek Radio \(1080p\)" \(mq-tv:energeek-radio-1080p\) → EnerGeek Radio TV "EnerGeek Radio TV" \(0\.\d\d\)$/m,
    );
    expect(text).toContain(
      '         pin it:  livetv.guideOverrides: { "EnerGeek Radio (1080p)": "EnerGeek Radio TV" }\n',
    );
    // Every candidate shown has its name.
    for (const line of text.split('\n').filter((l) => /^ +(closest|next): /.test(l) && !l.endsWith(' none'))) {
      const scores = line.match(/ \d\.\d\d/g) ?? [];
      expect(line.match(/\S "[^"]+" \d\.\d\d/g)?.length, line).toBe(scores.length);
    }

    const json = JSON.parse((await runCli(['status', '--db', 'tv.db', '--matches', '--json'], { cwd })).stdout)
      .matches as { withoutGuide: Review[]; review: Review[] };
    const byName = new Map([...json.withoutGuide, ...json.review].map((r) => [r.name, r]));
    expect(byName.get('Channels TV')).toMatchObject({ clear: false, pin: '"Channels TV": null', choices: [] });
    expect(byName.get('Euronews French')).toMatchObject({
      clear: false,
      pin: '"Euronews French": null',
      choices: ['g3', 'g22', 'g37'],
    });
    expect(byName.get('EnerGeek Radio (1080p)')).toMatchObject({
      clear: true,
      pin: '"EnerGeek Radio (1080p)": "EnerGeek Radio TV"',
      choices: [],
    });
  });

  it('keeps the channels of a guide that gives nothing, and its pin makes it give programmes', async () => {
    // The UK guide names none of the playlist's channels as it does: it gives nothing, and fails.
    const cwd = project('failed-guide', {
      'uk.xml': guide({ 'bbcone.uk': ['BBC One'], 'bbconescotland.uk': ['BBC One Scotland'] }),
      'ru.xml': guide({ 'karusel.ru': ['Карусель', 'Carousel'] }),
      'tv.m3u': playlist(['UK: BBC One Wales FHD', 'RU: Karusel FHD']),
      'marquee.yaml': ['db: ./tv.db', 'livetv:', '  playlists: [./tv.m3u]', '  guides: [./uk.xml, ./ru.xml]', ''].join(
        '\n',
      ),
    });
    const imported = await runCli(['import'], { cwd });
    expect(imported.code).toBe(1);
    expect(imported.stdout).toMatch(/failed, never imported: guide \S*uk\.xml: gives nothing: none of its 2 channels/);

    const status = await runCli(['status', '--matches'], { cwd });
    const text = status.stdout.slice(status.stdout.indexOf('matches: '));
    expect(text).toContain('NONE   "UK: BBC One Wales FHD" (mq-tv:uk-bbc-one-wales-fhd)');
    expect(text).toMatch(
      /^ {9}closest: bbcone\.uk "BBC One" 0\.\d\d \(failed guide\), bbconescotland\.uk "BBC One Scotland" 0\.\d\d \(failed guide\)$/m,
    );
    expect(text).toContain(
      'pin it:  livetv.guideOverrides: { "UK: BBC One Wales FHD": "bbcone.uk" }   (null: it has no guide)',
    );
    expect(text).toMatch(/^\(failed guide\): guide \S*uk\.xml failed as a whole in the last import/m);

    // The line copied into the settings: the guide now gives that channel its programmes.
    writeFileSync(
      join(cwd, 'marquee.yaml'),
      `${['db: ./tv.db', 'livetv:', '  playlists: [./tv.m3u]', '  guides: [./uk.xml, ./ru.xml]'].join('\n')}\n  guideOverrides: { "UK: BBC One Wales FHD": "bbcone.uk" }\n`,
    );
    const again = await runCli(['import', '--json'], { cwd });
    expect(again.code, again.stdout).toBe(0);
    const wales = (JSON.parse(again.stdout).livetv.matches as { name: string; guide: string; rule: string }[]).find(
      (m) => m.name === 'UK: BBC One Wales FHD',
    );
    expect(wales).toMatchObject({ guide: 'bbcone.uk', guideName: 'BBC One', rule: 'override' });
  });
});
