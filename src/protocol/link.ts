import * as v from 'valibot';

/** Meta Link object: `{ name, category, url }` (url may be a `stremio:///` deep link). */
export const LinkSchema = v.looseObject({
  name: v.string(),
  category: v.string(),
  url: v.string(),
});

export type Link = v.InferOutput<typeof LinkSchema>;
