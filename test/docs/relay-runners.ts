/**
 * The runners of docs/relay.md's blocks: its settings read as `marquee` reads them, the refusal a
 * viewer past a connection limit gets (as the relay writes it), and its `marquee status` lines
 * written by the same code from the same sessions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { relayLines } from '../../src/cli/commands/status-relay.js';
import { loadSettingsFile } from '../../src/cli/settings.js';
import { LimitRefusal } from '../../src/relay/slots.js';
import type { Block } from './blocks.js';

export const RELAY_RUNNERS: Record<string, (block: Block) => Promise<void>> = {
  /** The settings block, read and checked: each relay setting as the docs give it. */
  async 'relay-settings'(block) {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-docs-relay-'));
    try {
      writeFileSync(join(dir, 'marquee.yaml'), block.text);
      const settings = loadSettingsFile(join(dir, 'marquee.yaml'));
      expect(settings.relay).toEqual({
        enabled: 'auto',
        keepDirect: false,
        idleSeconds: 10,
        stallSeconds: 6,
        maxUpstreams: 16,
        maxViewers: 256,
      });
      expect(settings.livetv?.playlists).toEqual([
        { url: join(dir, 'tv.m3u'), maxConnections: 1 },
        join(dir, 'free-channels.m3u'),
      ]);
      expect(settings.xtream?.[0]).toMatchObject({ maxConnections: 2, userAgent: 'VLC/3.0.20 LibVLC/3.0.20' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  /** The 503's text for a playlist allowing one connection, held by BBC One. */
  async 'relay-refusal'(block) {
    const refusal = new LimitRefusal(
      {
        key: 'source:x',
        max: 1,
        says: 'this playlist allows 1 connection at a time (livetv.playlists[0].maxConnections)',
      },
      ['BBC One'],
    );
    expect(`This channel cannot be relayed now: ${refusal.message}.\n`).toBe(block.text);
  },

  /** `marquee status`'s relay lines for the two sessions the block shows. */
  async 'relay-status'(block) {
    const lines = relayLines({
      pid: process.pid,
      updatedAt: Date.now(),
      limits: { maxUpstreams: 16, maxViewers: 256 },
      sessions: [
        {
          channel: 'BBC One',
          channelId: 'mq-tv:bbc-one',
          viewers: 2,
          upstream: 'http://provider.example:8080/…/101.ts',
          kind: 'ts',
          codecs: 'h264+aac',
          bytesIn: 1.2e9,
          bytesOut: 2.3e9,
          since: Date.parse('2026-03-01T18:02:00Z'),
          failovers: 0,
          state: 'live',
        },
        {
          channel: 'Arte',
          channelId: 'mq-tv:arte',
          viewers: 1,
          upstream: 'https://cdn.example/…/index.m3u8',
          kind: 'hls',
          bytesIn: 340e6,
          bytesOut: 341e6,
          since: Date.parse('2026-03-01T19:40:00Z'),
          failovers: 1,
          state: 'live',
        },
      ],
    });
    expect(`${lines.join('\n')}\n`).toBe(block.text);
  },
};
