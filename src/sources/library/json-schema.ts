import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { isAbsoluteUrl } from '../../protocol/common.js';
import { LibraryItemSchema } from './item.js';
import { isReleased } from './released.js';

/**
 * The library file format as JSON Schema (draft-07), generated from the valibot schemas so it
 * cannot drift: `schemas/library-item.schema.json` is this function's output, and a test keeps
 * them equal. Editors use it for completion (`"$schema": "…/library-item.schema.json"`).
 *
 * Custom checks have no JSON Schema of their own. The ones below are translated; any other is
 * left out (errorMode `ignore`) and listed in the schema's `$comment`, so the gap is visible.
 * Normalisation (generated ids, dates, numeric runtime) is not part of the file format: the
 * conversion reads the input side of every pipe (typeMode `input`).
 *
 * Needs the dev dependency `@valibot/to-json-schema`: import this module from tools and
 * tests only, never from code that runs in production.
 */

type Action = v.PipeAction<unknown, unknown, v.BaseIssue<unknown>> & { requirement?: unknown; message?: unknown };

const forbidWhen = (type: string, field: string): JsonSchema => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a promise.
  then: { not: { required: [field] } },
});

/** Checks translated by their error message (the protocol exports no handle for them). */
const BY_MESSAGE: Record<string, (schema: JsonSchema) => JsonSchema> = {
  'a stream needs exactly one source: url, ytId, infoHash or externalUrl': (s) => ({
    ...s,
    oneOf: ['url', 'ytId', 'infoHash', 'externalUrl'].map((key) => ({ required: [key] })),
  }),
  'behaviorHints.proxyHeaders needs behaviorHints.notWebReady: true': (s) => ({
    ...s,
    if: { properties: { behaviorHints: { required: ['proxyHeaders'] } }, required: ['behaviorHints'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema keyword.
    then: {
      properties: { behaviorHints: { properties: { notWebReady: { const: true } }, required: ['notWebReady'] } },
    },
  }),
  'only a series has videos': (s) => ({ ...s, allOf: [...(s.allOf ?? []), forbidWhen('movie', 'videos')] }),
  'a series has no streams of its own: put them on its videos': (s) => ({
    ...s,
    allOf: [...(s.allOf ?? []), forbidWhen('series', 'streams')],
  }),
  'a series has no subtitles of its own: put them on its videos': (s) => ({
    ...s,
    allOf: [...(s.allOf ?? []), forbidWhen('series', 'subtitles')],
  }),
};

/**
 * The JSON Schema of a library file: an array of items, `{ "items": [...] }`, or one item.
 *
 * @example JSON.stringify(libraryJsonSchema(), null, 2)
 */
export function libraryJsonSchema(): JsonSchema {
  const unconverted = new Set<string>();
  const item = toJsonSchema(LibraryItemSchema as v.GenericSchema, {
    target: 'draft-07',
    typeMode: 'input',
    errorMode: 'ignore',
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const action = valibotAction as Action;
      if (action.type !== 'check') return undefined;
      if (action.requirement === isAbsoluteUrl) return { ...jsonSchema, format: 'uri' };
      const translate = typeof action.message === 'string' ? BY_MESSAGE[action.message] : undefined;
      if (translate !== undefined) return translate(jsonSchema);
      // The pattern already has the shape; only the calendar check (no 30 February) is lost.
      unconverted.add(action.requirement === isReleased ? 'released is a real calendar date' : String(action.message));
      return jsonSchema;
    },
  });
  const { $schema: _draft, ...itemSchema } = item;
  const ref = { $ref: '#/definitions/LibraryItem' };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Marquee library file',
    description:
      'Movies and series with their streams and subtitles: an array of items, { "items": [...] }, or one item per file. See docs/library-format.md.',
    ...(unconverted.size === 0
      ? {}
      : { $comment: `Checked by the reader only: ${[...unconverted].sort().join('; ')}.` }),
    anyOf: [
      { type: 'array', items: ref },
      {
        type: 'object',
        properties: { $schema: { type: 'string' }, items: { type: 'array', items: ref } },
        required: ['items'],
      },
      ref,
    ],
    definitions: { LibraryItem: itemSchema },
  };
}
