/**
 * Which words of a playlist channel's name to look up in the guide's index (postings.ts) so that
 * every guide name that could score the threshold with it is found, and a little more for review.
 */
import { stationTokens } from './call-sign.js';
import { feedAt, markAt, type NameForm, weightAt } from './form.js';
import { type Postings, probeSet } from './postings.js';
import { FEED } from './score.js';

/** A word probed only for review's candidates must reach at most this many names. */
const EXTRA_REACH = 200;

/**
 * The tokens of `p` to probe: enough for the bound (`share` of its weight, see probeSet), one
 * rare word more for review's candidates, its words beside a dial number a guide may leave out,
 * and the words that are a station's call sign (`stations`: the letters of those the guide writes).
 */
export function playlistProbes(
  postings: Postings,
  p: NameForm,
  share: number,
  stations: ReadonlySet<string>,
): Set<number> {
  const reach = (i: number) => postings.reach(p, i);
  // Unaligned, a feed word weighs FEED; every other word its weight.
  const extra = (i: number) => (feedAt(p, i) ? Math.min(weightAt(p, i), FEED) : weightAt(p, i));
  const probes = new Set(probeSet(p, share, reach, extra, true));
  if (probes.size < 2) {
    // One word more, for the candidates a channel left unmatched shows in review (`BBC One
    // Wales` has no rare word but `wales`): the rarest of the others, when it is rare enough
    // to say something.
    let more = -1;
    let least = EXTRA_REACH + 1;
    for (let i = 0; i < p.tokens.length; i++) {
      if (probes.has(i) || markAt(p, i)) continue;
      const r = reach(i);
      if (r < least) {
        least = r;
        more = i;
      }
    }
    if (more >= 0) probes.add(more);
  }
  // A match that leaves the playlist's dial number out aligns none of its numbers.
  if (p.marks !== '' && !p.trailingNumber && !p.marks.includes('+')) {
    for (const i of probeSet(p, share, reach, extra, false)) probes.add(i);
  }
  for (const i of stationTokens(p, stations)) probes.add(i);
  return probes;
}
