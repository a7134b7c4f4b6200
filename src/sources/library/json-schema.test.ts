import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LIBRARY_ITEM_FIELDS } from './item.js';
import { libraryJsonSchema } from './json-schema.js';

const committed = new URL('../../../schemas/library-item.schema.json', import.meta.url);
const REGENERATE = 'MARQUEE_WRITE_SCHEMAS=1 npx vitest run src/sources/library/json-schema.test.ts';

describe('libraryJsonSchema', () => {
  it('equals the committed schemas/library-item.schema.json', async () => {
    const generated = libraryJsonSchema();
    if (process.env.MARQUEE_WRITE_SCHEMAS === '1') {
      await writeFile(committed, `${JSON.stringify(generated, null, 2)}\n`);
    }
    // Compared as data, so the formatter may lay the file out as it likes.
    const onDisk = JSON.parse(await readFile(committed, 'utf8'));
    expect(onDisk, `the committed schema is stale; run: ${REGENERATE}`).toEqual(generated);
  });

  it('describes every item field and the rules valibot checks in code', () => {
    // Looked at as the committed file is: plain JSON.
    const schema = JSON.parse(JSON.stringify(libraryJsonSchema()));
    const item = schema.definitions.LibraryItem;
    expect(new Set(Object.keys(item.properties))).toEqual(LIBRARY_ITEM_FIELDS);
    expect(item.required).toEqual(['type', 'name']);
    expect(item.properties.poster).toEqual({ type: 'string', format: 'uri' });
    expect(item.allOf).toHaveLength(3);
    expect(item.allOf[0].if.properties.type).toEqual({ const: 'movie' });
    const stream = item.properties.streams.items;
    expect(stream.oneOf).toEqual(['url', 'ytId', 'infoHash', 'externalUrl'].map((k) => ({ required: [k] })));
    expect(item.properties.videos.items.required).toEqual(['season', 'episode']);
    // What JSON Schema cannot say is listed, not silently dropped.
    expect(schema.$comment).toBe('Checked by the reader only: released is a real calendar date.');
  });
});
