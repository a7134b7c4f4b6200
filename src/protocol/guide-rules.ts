import { arrayOf, isRecord, type Json, quote, type ResponseIssue } from './report.js';

/**
 * Programme rules for the videos of a channel (spec "Video (programme) object" and "Programme
 * rules"). Field formats (RFC 3339, URLs) are the schema's job; these are the rules that need
 * more than one field, or more than one video, to decide.
 */

/** Programme ids already seen on the page, with the path of the channel that used them first. */
export type PageProgrammeIds = Map<string, string>;

/**
 * Check the videos of one channel. `guide` is true for a guide row (every video must be a
 * programme); elsewhere a video without times is a plain video and fine.
 *
 * `now` tells catch-up (streams on a programme that has started) from a locked programme.
 * @example checkProgrammes(meta, '$.metasDetailed[0]', true, new Map(), issues, Date.now())
 */
export function checkProgrammes(
  meta: Json,
  base: string,
  guide: boolean,
  pageIds: PageProgrammeIds,
  out: ResponseIssue[],
  now: number,
): void {
  const videos = arrayOf(meta.videos);
  const channelIds = new Set<string>();
  const programmeIds = new Set<string>();
  for (let j = 0; j < videos.length; j++) {
    const video = videos[j];
    if (!isRecord(video)) continue;
    const path = `${base}.videos[${j}]`;
    const start = video.startTime;
    const end = video.endTime;
    const hasStart = start !== undefined;
    const hasEnd = end !== undefined;
    if (hasStart !== hasEnd) {
      const missing = hasStart ? 'endTime' : 'startTime';
      out.push({
        severity: 'error',
        path: `${path}.${missing}`,
        message: `is missing: a programme needs both startTime and endTime`,
        effect: 'the video does not appear on the guide grid',
      });
    } else if (!hasStart && guide) {
      out.push({
        severity: 'error',
        path,
        message: 'a guide row video needs startTime and endTime (RFC 3339)',
        effect: 'the video does not appear on the guide grid',
      });
    }
    const isProgramme = hasStart && hasEnd;
    if (isProgramme && typeof start === 'string' && typeof end === 'string') {
      const s = Date.parse(start);
      const e = Date.parse(end);
      if (!Number.isNaN(s) && !Number.isNaN(e) && e <= s) {
        out.push({
          severity: 'error',
          path: `${path}.endTime`,
          message: `${quote(end)} is not after startTime ${quote(start)}: endTime must be strictly later`,
          effect: 'the video is not a programme and does not appear on the guide grid',
        });
      }
    }
    if (isProgramme && video.released === undefined) {
      out.push({
        severity: 'warning',
        path: `${path}.released`,
        message: 'is missing: set released on every programme (normally equal to startTime)',
      });
    }
    // Streams on a programme that has started are its catch-up, the case the spec allows them for.
    if (isProgramme && video.streams !== undefined && !(Date.parse(String(start)) <= now)) {
      out.push({
        severity: 'warning',
        path: `${path}.streams`,
        message:
          "streams on a programme that has not started lock it to those streams: remove them and serve the channel's streams (catch-up streams belong on programmes that have started)",
        effect: "the client plays only these streams for the programme, never the channel's or other add-ons'",
      });
    }
    const id = video.id;
    if (typeof id !== 'string' || id === '') continue;
    if (channelIds.has(id)) {
      out.push({
        severity: 'error',
        path: `${path}.id`,
        message: `${quote(id)} is used by an earlier video of this channel: ids are unique per programme ({channelId}:epg:{startTime})`,
        effect: 'the client keeps only one of the two',
      });
      continue;
    }
    channelIds.add(id);
    if (isProgramme) programmeIds.add(id);
    const other = pageIds.get(id);
    if (other !== undefined && other !== base) {
      out.push({
        severity: 'warning',
        path: `${path}.id`,
        message: `${quote(id)} is also a programme id of ${other}: use {channelId}:epg:{startTime} so ids are unique across channels`,
      });
    } else if (isProgramme) pageIds.set(id, base);
  }
  const defaultVideoId = isRecord(meta.behaviorHints) ? meta.behaviorHints.defaultVideoId : undefined;
  if (typeof defaultVideoId === 'string' && programmeIds.has(defaultVideoId)) {
    out.push({
      severity: 'error',
      path: `${base}.behaviorHints.defaultVideoId`,
      message: `points at the programme ${quote(defaultVideoId)}: remove it (a channel plays its live streams, not a programme)`,
      effect: 'the client opens that programme instead of the live channel',
    });
  }
}
