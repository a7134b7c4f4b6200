/**
 * Hosted mode as a new user met it (issue 46): the configure form says "unchanged" for the Xtream
 * password only when the install link holds one (a playlist alone has none), and a source that
 * fails is told as its cause and what to do, not as the import's bookkeeping ("never imported
 * well", "contributes nothing", "none is served": that history is the operator's, in `status`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProblem } from '../src/hosted/problem-text.js';
import { generateKeyRing } from '../src/server/index.js';
import { form, type HostedUnderTest, type SourceServer, startHosted, startSourceServer } from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { type Panel, startPanel } from './helpers/xtream-panel.js';

const JSON_ACCEPT = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
const BOOKKEEPING = /never imported|contributes nothing|none is served|kept since|last good|previous data/;

let dir: string;
let sources: SourceServer;
let panel: Panel;
let h: HostedUnderTest;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-hosted-first-week-'));
  sources = await startSourceServer();
  panel = await startPanel({ live: 6, movies: 0, series: 0 });
  h = await startHosted(dir, generateKeyRing(), { sourceOptions: { allowPrivate: true }, importsPerMinute: 600 });
});
afterAll(async () => {
  await h.close();
  await sources.close();
  await panel.close();
  rmSync(dir, { recursive: true, force: true });
});

const configure = (fields: Record<string, string>) =>
  httpRequest(h.url, '/configure', { method: 'POST', headers: JSON_ACCEPT, body: form(fields) });

/** The reconfigure page of an install link, and its Xtream password field. */
async function passwordField(manifestUrl: string): Promise<{ page: string; field: string }> {
  const path = new URL(manifestUrl).pathname.replace(/\/manifest\.json$/, '/configure');
  const page = (await httpRequest(h.url, path)).text();
  const field = /<div class="field[^"]*"><label for="field-xtreamPass">[\s\S]*?<\/div>/.exec(page)?.[0] ?? '';
  expect(field).not.toBe('');
  return { page, field };
}

describe('the hosted configure form', () => {
  it('says the Xtream password is unchanged only when the link holds one', async () => {
    const playlistOnly = await configure({ playlist: `${sources.url}/a.m3u` });
    expect(playlistOnly.status).toBe(200);
    const without = await passwordField(playlistOnly.json().manifestUrl);
    expect(without.field).not.toContain('unchanged');
    expect(without.field).not.toContain('Leave empty to keep');

    const account = new URL(panel.account);
    const withAccount = await configure({
      xtreamUrl: panel.url,
      xtreamUser: decodeURIComponent(account.username),
      xtreamPass: decodeURIComponent(account.password),
    });
    expect(withAccount.status, withAccount.text()).toBe(200);
    const kept = await passwordField(withAccount.json().manifestUrl);
    expect(kept.field).toContain('placeholder="unchanged"');
    expect(kept.field).toContain('Leave empty to keep the current value.');
    // The password itself is never in the page.
    expect(kept.page).not.toContain(decodeURIComponent(account.password));
  });
});

describe('a hosted source that fails', () => {
  it('is told by its cause and what to do, without the import history', async () => {
    const missing = await configure({ playlist: `${sources.url}/missing.m3u` });
    expect(missing.status).toBe(422);
    expect(missing.json().error.message).toBe(
      `playlist: ${sources.url}/missing.m3u was not found on its server (HTTP 404): check the address (copy it again from your provider)`,
    );
    const page = await configure({ playlist: `${sources.url}/page.html` });
    expect(page.json().error.message).toMatch(
      /^playlist: \S+\/page\.html is a web page \(HTML\), not a playlist: give the playlist's own address/,
    );
    const nowhere = await configure({ playlist: 'http://iptv.marquee-test.invalid/list.m3u' });
    expect(nowhere.json().error.message).toBe(
      'playlist: http://iptv.marquee-test.invalid/list.m3u names a server that does not exist (no such host): check the address for a typo',
    );
    for (const answer of [missing, page, nowhere]) expect(answer.json().error.message).not.toMatch(BOOKKEEPING);

    // The form shows it beside the field, as the same sentence.
    const shown = await httpRequest(h.url, '/configure', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ playlist: `${sources.url}/missing.m3u` }),
    });
    expect(shown.text()).toContain('was not found on its server (HTTP 404): check the address');
    expect(shown.text()).not.toMatch(BOOKKEEPING);
  });

  it('says for each cause what to do', () => {
    const url = 'https://tv.example/list.m3u';
    const cases: [string, string, RegExp][] = [
      [
        'playlist',
        'failed: HTTP 403 Forbidden',
        /refused by its server \(HTTP 403\): check the address, and that your subscription is active$/,
      ],
      [
        'playlist',
        'failed: HTTP 503 Service Unavailable',
        /its server is busy or failing \(HTTP 503\); try again in a few minutes$/,
      ],
      [
        'playlist',
        'failed: connect ECONNREFUSED 203.0.113.5:80 (after 3 attempts)',
        /could not be reached: its server did not answer/,
      ],
      [
        'playlist',
        'holds no #EXTINF entry: not an IPTV playlist',
        /holds no channel: it is not an IPTV playlist \(M3U\)/,
      ],
      ['guide', 'is an HTML page, not a playlist', /is a web page \(HTML\), not a guide: give the guide's own address/],
      [
        'guide',
        'gives nothing: none of its 1,204 channels matches a playlist channel; closest: "BBC One" for "UK: BBC ONE FHD" (0.62)',
        /^\S+ gives no programmes: none of its 1,204 channels matches a playlist channel; .*\. Use the guide that goes with your playlist$/,
      ],
    ];
    for (const [kind, reason, expected] of cases) {
      const message = userProblem(kind, url, reason);
      expect(message, reason).toMatch(expected);
      expect(message.startsWith(`${url} `)).toBe(true);
    }
  });
});
