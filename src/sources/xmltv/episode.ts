/**
 * Episode numbers. `xmltv_ns` is `season.episode.part`, each zero-based and optionally `n/total`,
 * any part may be empty and grabbers sprinkle spaces. `onscreen` is free text (`S01E02`, `1x02`):
 * kept as written, and read for numbers only when a guide gives no `xmltv_ns`.
 */

/** Season and episode, 1-based; either may be missing. */
export interface EpisodeNumbers {
  readonly season?: number;
  readonly episode?: number;
}

/** Larger values are junk (dates, ids) rather than episode numbers. */
const MAX_NUMBER = 100_000;

/**
 * Reads an `xmltv_ns` episode-num to 1-based numbers; `undefined` when neither part is a number.
 *
 * @example parseXmltvNs('1 . 4/10 . 0/1') // { season: 2, episode: 5 }
 */
export function parseXmltvNs(text: string): EpisodeNumbers | undefined {
  const firstDot = text.indexOf('.');
  if (firstDot < 0) {
    const season = zeroBased(text);
    return season === undefined ? undefined : { season };
  }
  const secondDot = text.indexOf('.', firstDot + 1);
  const season = zeroBased(text.slice(0, firstDot));
  const episode = zeroBased(text.slice(firstDot + 1, secondDot < 0 ? text.length : secondDot));
  if (season === undefined && episode === undefined) return undefined;
  return { season, episode };
}

const ON_SCREEN_SEASON_EPISODE = /^\s*S(?:eason)?\s*(\d{1,5})\s*[ ,.:-]?\s*E(?:p(?:isode)?)?\.?\s*(\d{1,5})/i;
const ON_SCREEN_CROSS = /^\s*(\d{1,4})\s*x\s*(\d{1,5})\b/i;

/**
 * Reads the common on-screen forms (`S01E02`, `S1 E2`, `Season 1 Episode 2`, `1x02`); `undefined` otherwise.
 *
 * @example parseOnScreen('S03E07') // { season: 3, episode: 7 }
 */
export function parseOnScreen(text: string): EpisodeNumbers | undefined {
  const match = ON_SCREEN_SEASON_EPISODE.exec(text) ?? ON_SCREEN_CROSS.exec(text);
  if (match === null) return undefined;
  return { season: Number(match[1]), episode: Number(match[2]) };
}

/** `" 4/10 "` → 5; empty, non-numeric or absurd → undefined. */
function zeroBased(part: string): number | undefined {
  const slash = part.indexOf('/');
  const value = (slash < 0 ? part : part.slice(0, slash)).trim();
  if (value.length === 0 || value.length > 6) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const n = Number(value);
  return n >= MAX_NUMBER ? undefined : n + 1;
}
