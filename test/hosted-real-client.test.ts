/**
 * A hosted user in the real Stremio client core: configure through POST /configure, install the
 * manifest URL it answers, load the channel catalog, open a channel with its guide.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyRing } from '../src/server/index.js';
import {
  A_CHANNELS,
  form,
  type HostedUnderTest,
  type SourceServer,
  startHosted,
  startSourceServer,
} from './helpers/hosted.js';
import { httpRequest } from './helpers/http.js';
import { createStremioClient, type StremioClient } from './helpers/stremio-client.js';

let sources: SourceServer;
let hosted: HostedUnderTest;
let client: StremioClient;
let dir: string;

beforeAll(async () => {
  sources = await startSourceServer();
  dir = mkdtempSync(join(tmpdir(), 'marquee-hosted-client-'));
  hosted = await startHosted(dir, generateKeyRing(), { sourceOptions: { allowPrivate: true } });
  client = await createStremioClient();
});
afterAll(async () => {
  client?.close();
  await hosted?.close();
  await sources?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a hosted user in the real client', () => {
  it('installs their own manifest URL, loads their channels and opens one with its guide', async () => {
    const answer = await httpRequest(hosted.url, '/configure', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ playlist: `${sources.url}/a.m3u`, epg: `${sources.url}/guide.xml` }),
    });
    expect(answer.status, answer.text()).toBe(200);
    const transportUrl: string = answer.json().manifestUrl;

    const descriptor = await client.installAddon(transportUrl);
    expect(descriptor.manifest.id).toBe('org.marquee.hosted');
    expect(descriptor.manifest.catalogs[0]?.id).toBe('mq-tv-channels');

    const whole = await client.loadWholeCatalog({ transportUrl, type: 'tv', id: 'mq-tv-channels' });
    expect(whole.error).toBeNull();
    expect(whole.items.map((i) => i.name).sort()).toEqual([...A_CHANNELS].sort());

    const first = whole.items[0]!;
    const meta = await client.loadMeta({ transportUrl, type: 'tv', id: first.id });
    expect(meta.metaError).toBeNull();
    expect(meta.meta?.name).toBe(first.name);
    expect(meta.meta?.videos.length).toBeGreaterThan(0);
    expect(meta.meta?.videos.every((v) => /^a\d show \d$/.test(v.title))).toBe(true);
    // Every request the client made went under the user's own install link.
    const prefix = new URL(transportUrl).pathname.replace(/\/manifest\.json$/, '');
    expect(client.requests().length).toBeGreaterThan(0);
    const ours = client.requests().filter((r) => r.url.startsWith(hosted.url));
    expect(ours.length).toBeGreaterThan(2);
    for (const r of ours) expect(r.url.startsWith(`${hosted.url}${prefix}/`), r.url).toBe(true);
  });
});
