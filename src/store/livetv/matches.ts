/**
 * How each channel of the served import found its guide channel, or why it has none: kept with
 * the import (table `channel_matches`, livetv-007) so `marquee status --matches` can list what
 * needs a look without re-reading the sources.
 */
import type { Connection } from '../connection.js';
import { clip, LIMITS } from './rows.js';

/** A guide channel a channel's name came close to, with its score (0..1). */
export interface MatchCandidate {
  readonly id: string;
  /** Its (first) display name, when it has one (absent in matches recorded before livetv-008). */
  readonly name?: string;
  readonly score: number;
  /** The guide it is in, when that guide failed as a whole (its channels kept for review only). */
  readonly failedGuide?: string;
}

/** How one channel was matched, as the import records it. */
export interface ChannelMatchInput {
  readonly channelId: string;
  /** The channel's name as shown. */
  readonly name: string;
  /** What `guideOverrides` would name it by: its tvg-id, else tvg-name, else name. */
  readonly pin: string;
  /** The guide channel id, when one was found (an override of `null` finds none on purpose). */
  readonly guide?: string;
  /** That guide channel's (first) display name, when it has one. */
  readonly guideName?: string;
  /** The rule that decided (override, tvgId, feed, displayName, normalizedName, scored), when one did. */
  readonly rule?: string;
  /** The score of a scored match. */
  readonly score?: number;
  /** The closest other guide channels, best first. */
  readonly candidates?: readonly MatchCandidate[];
}

/** A stored match, with whether its guide channel holds programmes now. */
export interface ChannelMatch extends ChannelMatchInput {
  readonly hasProgrammes: boolean;
}

/** The statement an import writes matches with. */
export function matchWriter(db: Connection): (match: ChannelMatchInput) => void {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO channel_matches (channel_id, name, pin, guide, rule, score, candidates, guide_name) VALUES (?,?,?,?,?,?,?,?)',
  );
  return (m) => {
    insert.run(
      clip(m.channelId, LIMITS.key),
      clip(m.name, LIMITS.name),
      clip(m.pin, LIMITS.name),
      m.guide === undefined ? null : clip(m.guide, LIMITS.key),
      m.rule ?? null,
      m.score ?? null,
      m.candidates && m.candidates.length > 0 ? JSON.stringify(m.candidates.slice(0, 3).map(candidateRow)) : null,
      m.guideName === undefined ? null : clip(m.guideName, LIMITS.name),
    );
  };
}

function candidateRow(c: MatchCandidate): MatchCandidate {
  return {
    id: clip(c.id, LIMITS.key),
    ...(c.name !== undefined ? { name: clip(c.name, LIMITS.name) } : {}),
    score: c.score,
    ...(c.failedGuide !== undefined ? { failedGuide: clip(c.failedGuide, LIMITS.url) } : {}),
  };
}

/** Reads of the stored matches. */
export function matchReads(db: Connection) {
  const all = db.prepare<unknown[]>(
    `SELECT m.channel_id, m.name, m.pin, m.guide, m.rule, m.score, m.candidates,
       EXISTS (SELECT 1 FROM guide_days d WHERE d.key_id = c.key_id) AS shown, m.guide_name
     FROM channel_matches m LEFT JOIN channels c ON c.id = m.channel_id
     ORDER BY c.sort, c.rid`,
  );
  return {
    /** How each channel of the served import was matched, in catalog order (empty before the first import that recorded it). */
    channelMatches(): ChannelMatch[] {
      return (all.raw().all() as unknown[][]).map((r) => ({
        channelId: r[0] as string,
        name: r[1] as string,
        pin: r[2] as string,
        ...(r[3] !== null ? { guide: r[3] as string } : {}),
        ...(r[8] !== null ? { guideName: r[8] as string } : {}),
        ...(r[4] !== null ? { rule: r[4] as string } : {}),
        ...(r[5] !== null ? { score: r[5] as number } : {}),
        ...(r[6] !== null ? { candidates: JSON.parse(r[6] as string) as MatchCandidate[] } : {}),
        hasProgrammes: r[7] === 1,
      }));
    },
  };
}

export type MatchReads = ReturnType<typeof matchReads>;
