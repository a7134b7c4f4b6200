import * as v from 'valibot';

/** Extra names the spec states; others are allowed (the client passes any declared name). */
export const KNOWN_EXTRAS = ['search', 'genre', 'skip', 'date'] as const;

/** Extra object: one extra property a catalog supports (`{ name: 'genre', options: [...] }`). */
export const ExtraSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  isRequired: v.optional(v.boolean()),
  options: v.optional(v.array(v.string())),
  optionsLimit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export type Extra = v.InferOutput<typeof ExtraSchema>;
