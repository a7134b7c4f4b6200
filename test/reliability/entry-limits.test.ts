/**
 * Counts and lengths bounded where they are read (issue 48): limits that counted only bytes let
 * 300,000 tiny Xtream live streams (17 MB) take `marquee import` to 1.2 GB, and guide display
 * names of 100,000 characters take a hosted instance with two users to 2.41 GB. Now an account's
 * live streams are counted against `sources.maxEntries` as they arrive (each stream an entry per
 * output format, as the playlist made of it has), a playlist's entries as it is parsed, and a name
 * longer than `sources.maxNameLength` is cut with a warning before anything matches or stores it.
 * The memory cases run Marquee as a child process (dist/) and read its peak RSS.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatXmltvTime } from '../../src/sources/xmltv/index.js';
import { runCli } from '../helpers/cli.js';
import { form } from '../helpers/hosted.js';
import { httpRequest } from '../helpers/http.js';
import { peakMb, peakUntilExit } from '../helpers/memory.js';
import { ensureBuilt, startMarquee } from '../helpers/serve-process.js';
import { type Panel, startPanel } from '../helpers/xtream-panel.js';

const LIMIT_MB = 400;

let dir: string;
let panel: Panel;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'marquee-entry-limits-'));
  panel = await startPanel({ live: 300_000, liveShape: 'tiny', movies: 0, series: 0, formats: ['m3u8', 'ts'] });
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await panel?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('300,000 tiny Xtream live streams', () => {
  it('are refused by count as they arrive, naming the limit, with marquee import under 400 MB', async () => {
    const importing = startMarquee(
      ['import', '--db', join(dir, 'xtream.db'), '--xtream', panel.account],
      dir,
      children,
    );
    const peak = await peakUntilExit(importing.process);
    expect(await importing.exited).toBe(1);
    // Two formats: 250,000 streams make the 500,000 entries of the default limit.
    expect(importing.output()).toMatch(
      /get_live_streams: more than 500000 entries \(sources\.maxEntries; 250001 live streams read, each an entry per output format \(2\)\)/,
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak, `marquee import peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
  }, 120_000);
});

describe('a playlist past sources.maxEntries', () => {
  it('fails as it is parsed, naming the line and the setting, and its last good data stays served', async () => {
    const cwd = mkdtempSync(join(dir, 'entries-'));
    const file = join(cwd, 'tv.m3u');
    const write = (n: number) =>
      writeFileSync(
        file,
        `#EXTM3U\n${Array.from({ length: n }, (_, i) => `#EXTINF:-1 tvg-id="c${i}",Channel ${i}\nhttp://s.example/${i}.m3u8`).join('\n')}\n`,
      );
    writeFileSync(join(cwd, 'marquee.json'), JSON.stringify({ sources: { maxEntries: 100 } }));
    write(100);
    const first = await runCli(['import', '--playlist', file], { cwd });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    write(101);
    const second = await runCli(['import', '--playlist', file], { cwd });
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(
      /kept: playlist .*tv\.m3u failed: line 203: more than 100 entries \(sources\.maxEntries\)/,
    );
    const status = await runCli(['status', '--playlist', file, '--json'], { cwd });
    expect(JSON.parse(status.stdout).sources[0]).toMatchObject({
      lastGood: { counts: { channels: 100 } },
      lastAttempt: { outcome: 'kept' },
    });
  }, 60_000);
});

/** A source host: a playlist of `CHANNELS` channels, and their guide with display names of 100,000 characters, generated as it is sent. */
const CHANNELS = 1_000;
const LONG = 100_000;
let names: Server;
let namesUrl: string;

function sendGuide(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/xml' });
  const hour = 3_600_000;
  const start = Math.floor(Date.now() / hour) * hour;
  const filler = 'Long name '.repeat(LONG / 10);
  let i = 0;
  res.write('<?xml version="1.0" encoding="UTF-8"?>\n<tv>\n');
  const pump = () => {
    while (i < CHANNELS) {
      const id = `x${i}`;
      const more = res.write(
        `<channel id="${id}"><display-name>Channel ${i} ${filler}</display-name></channel>\n` +
          `<programme channel="${id}" start="${formatXmltvTime(start)}" stop="${formatXmltvTime(start + hour)}"><title>Show ${i}</title></programme>\n`,
      );
      i++;
      if (!more) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('</tv>\n');
  };
  pump();
}

describe.skipIf(process.platform !== 'linux')('guide display names of 100,000 characters', () => {
  beforeAll(async () => {
    names = createServer((req, res) => {
      if (req.url?.startsWith('/guide.xml')) return sendGuide(res);
      const prefix = new URL(req.url ?? '/', 'http://h').searchParams.get('user') ?? 'u';
      res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
      res.end(
        `#EXTM3U\n${Array.from({ length: CHANNELS }, (_, i) => `#EXTINF:-1 tvg-id="x${i}",${prefix} ${i}\nhttp://s.example/${prefix}/${i}.m3u8`).join('\n')}\n`,
      );
    });
    await new Promise<void>((done) => names.listen(0, '127.0.0.1', done));
    namesUrl = `http://127.0.0.1:${(names.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => names?.close(done));
  });

  it('are cut to 300 characters as they are read: two hosted users at once stay under 400 MB', async () => {
    writeFileSync(join(dir, 'names.json'), JSON.stringify({ hosted: { importsPerMinute: 60 } }));
    const server = startMarquee(
      [
        'serve',
        '--hosted',
        '--allow-private-sources',
        '--port',
        '0',
        '--db',
        join(dir, 'names.db'),
        '--config',
        join(dir, 'names.json'),
        '--log-format',
        'json',
      ],
      dir,
      children,
    );
    const [, manifest] = await server.waitFor(/manifest: +(\S+)/);
    const base = manifest!.replace(/\/manifest\.json$/, '');
    const user = (name: string) =>
      httpRequest(base, '/configure', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ playlist: `${namesUrl}/tv.m3u?user=${name}`, epg: `${namesUrl}/guide.xml?user=${name}` }),
      });
    const answers = await Promise.all([user('first'), user('second')]);
    for (const answer of answers) {
      expect(answer.status, answer.text()).toBe(200);
      expect(answer.json().summary).toMatchObject({ channels: CHANNELS, programmes: CHANNELS });
    }
    const peak = peakMb(server.process.pid!);
    expect(peak, `serve --hosted peaked at ${peak.toFixed(0)} MB`).toBeLessThan(LIMIT_MB);
    // What a user is shown of a guide channel: the name as cut.
    const link = new URL(answers[0]!.json().manifestUrl).pathname.replace(/\/manifest\.json$/, '');
    const meta = await httpRequest(base, `${link}/meta/tv/${encodeURIComponent('mq-tv:x0')}.json`);
    expect(meta.status).toBe(200);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
