import * as v from 'valibot';
import { UrlSchema } from './common.js';
import { ManifestSchema } from './manifest.js';

/** Add-on catalog entry: another add-on, by its manifest URL and a copy of its manifest. */
export const AddonEntrySchema = v.looseObject({
  transportName: v.literal('http'),
  transportUrl: v.pipe(
    UrlSchema,
    v.check((url) => new URL(url).pathname.endsWith('/manifest.json'), 'must end in /manifest.json'),
  ),
  manifest: ManifestSchema,
});

export type AddonEntry = v.InferOutput<typeof AddonEntrySchema>;
