/**
 * Every unknown key of a settings file, found in one run. The schema's strict objects stop at the
 * first unknown key of each object, so a block with two typos said only the first; this walks the
 * data beside the schema and lists them all (issue 46).
 */

/** A valibot schema, walked generically (its `type`, `wrapped`, `entries`, `item`, `options`, `value`). */
interface SchemaNode {
  readonly type: string;
  readonly wrapped?: SchemaNode;
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly item?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly value?: SchemaNode;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema under optional, nullable and nullish wrappers. */
function unwrap(schema: SchemaNode | undefined): SchemaNode | undefined {
  let s = schema;
  while (s?.wrapped) s = s.wrapped;
  return s;
}

/**
 * The path of every key in `data` that `schema` does not accept, in the order of the data.
 * @example unknownKeys(SettingsSchema, { refresh: { intervalHour: 6, every: 1 } }) // [['refresh', 'intervalHour'], ['refresh', 'every']]
 */
export function unknownKeys(schema: unknown, data: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  walk(schema as SchemaNode, data, [], out);
  return out;
}

function walk(node: SchemaNode | undefined, value: unknown, path: (string | number)[], out: (string | number)[][]) {
  const schema = unwrap(node);
  if (schema === undefined) return;
  if (schema.type === 'strict_object' || schema.type === 'object' || schema.type === 'loose_object') {
    if (!isMap(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const entry = schema.entries?.[key];
      if (entry !== undefined) walk(entry, inner, [...path, key], out);
      else if (schema.type === 'strict_object') out.push([...path, key]);
    }
  } else if (schema.type === 'array') {
    if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(schema.item, item, [...path, i], out);
  } else if (schema.type === 'record') {
    if (isMap(value)) for (const [key, inner] of Object.entries(value)) walk(schema.value, inner, [...path, key], out);
  } else if (schema.type === 'union') {
    // A value given as an object is read against the union's object option (a source `{ url, shiftHours }`).
    if (!isMap(value)) return;
    walk(
      schema.options?.find((o) => unwrap(o)?.entries !== undefined),
      value,
      path,
      out,
    );
  }
}

/** Keys a strict object in `schema` accepts at `path` (for "did you mean"). */
export function knownKeys(schema: unknown, path: readonly (string | number)[]): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: walking valibot schema objects generically
  let node: any = schema;
  for (const key of path) {
    while (node?.wrapped) node = node.wrapped;
    if (node?.type === 'array') node = node.item;
    else if (node?.entries) node = node.entries[key];
    else return [];
    while (node?.wrapped) node = node.wrapped;
    if (typeof key === 'number' && node?.type === 'union')
      node = node.options.find((o: { entries?: unknown }) => o.entries);
  }
  while (node?.wrapped) node = node.wrapped;
  if (node?.type === 'array') node = node.item;
  return node?.entries ? Object.keys(node.entries) : [];
}
