import * as v from 'valibot';

export const CONFIG_FIELD_TYPES = ['text', 'number', 'password', 'checkbox', 'select'] as const;
export type ConfigFieldType = (typeof CONFIG_FIELD_TYPES)[number];

/** Config object: one user setting shown on the generated /configure page. */
export const ConfigFieldSchema = v.looseObject({
  key: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  type: v.picklist(CONFIG_FIELD_TYPES, 'must be one of text, number, password, checkbox, select'),
  default: v.optional(v.string()),
  title: v.optional(v.string()),
  options: v.optional(v.array(v.string())),
  required: v.optional(v.boolean()),
});

export type ConfigField = v.InferOutput<typeof ConfigFieldSchema>;
