/** Each item as it enters the import: control characters cleaned, episodes whose ids are taken dropped. */
import { cleanName, cleanText } from '../sources/clean.js';
import type { LibraryItem } from '../sources/library/item.js';
import type { SourceWarning } from '../sources/records.js';
import type { LibraryImport } from '../store/index.js';

/** `item` with the control characters of its name, description and episodes' texts removed (sources/clean.ts). */
export function cleanItem(item: LibraryItem): LibraryItem {
  const name = cleanName(item.name);
  const description = item.description === undefined ? undefined : cleanText(item.description);
  let videosChanged = false;
  const videos = item.videos.map((v) => {
    const title = v.title === undefined ? undefined : cleanName(v.title);
    const overview = v.overview === undefined ? undefined : cleanText(v.overview);
    if (title === v.title && overview === v.overview) return v;
    videosChanged = true;
    return { ...v, ...(title !== undefined ? { title } : {}), ...(overview !== undefined ? { overview } : {}) };
  });
  if (name === item.name && description === item.description && !videosChanged) return item;
  return { ...item, name, ...(description !== undefined ? { description } : {}), ...(videosChanged ? { videos } : {}) };
}

/** `item` without the episodes whose ids are taken; one warning per episode dropped. */
export function withoutTakenEpisodes(
  imp: LibraryImport,
  item: LibraryItem,
  source: string,
  firstSeen: Map<string, string>,
): { item: LibraryItem; warnings: SourceWarning[] } {
  if (item.videos.length === 0) return { item, warnings: [] };
  const warnings: SourceWarning[] = [];
  const videos = item.videos.filter((video, index) => {
    if (video.id !== item.id && !imp.hasId(video.id)) return true;
    warnings.push({
      source,
      field: `videos[${index}].id`,
      message: `item "${item.name}": episode id "${video.id}" is already used by ${firstSeen.get(video.id) ?? `item "${item.name}"`}; episode skipped`,
    });
    return false;
  });
  return { item: videos.length === item.videos.length ? item : { ...item, videos }, warnings };
}
