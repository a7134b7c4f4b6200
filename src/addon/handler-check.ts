import type { Issue } from '../errors.js';
import type { Handlers } from './types.js';

/** The handler that answers each resource the client knows. */
const HANDLER_OF = {
  catalog: 'catalog',
  meta: 'meta',
  stream: 'stream',
  subtitles: 'subtitles',
  addon_catalog: 'addonCatalog',
} as const satisfies Record<string, keyof Handlers>;

type ResourceName = keyof typeof HANDLER_OF;

const isKnown = (name: string): name is ResourceName => Object.hasOwn(HANDLER_OF, name);

/**
 * What does not fit between the manifest's resources and the handlers given: a declared resource
 * without a handler answers 404 to every request the client makes for it (only a checker would
 * notice), and a handler whose resource is not declared is never asked. The official SDK refuses
 * both when the add-on starts; so does `createAddon`, listing them with the manifest's errors
 * (read from the manifest as given, so they are listed even when it has other errors).
 *
 * @example handlerIssues(manifest, { catalog }) // [{ path: '$.resources[1]', message: '"meta" is declared but handlers.meta is missing: …' }]
 */
export function handlerIssues(manifest: unknown, handlers: Readonly<Record<string, unknown>>): Issue[] {
  const issues: Issue[] = [];
  const declared = new Set<string>();
  const resources = (manifest as { resources?: unknown } | null)?.resources;
  // A resources list that is not one is a manifest error of its own.
  if (!Array.isArray(resources)) return issues;
  resources.forEach((entry: unknown, i) => {
    const name = typeof entry === 'string' ? entry : (entry as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const path = typeof entry === 'string' ? `$.resources[${i}]` : `$.resources[${i}].name`;
    declared.add(name);
    if (!isKnown(name)) {
      issues.push({
        path,
        message: `"${name}" has no handler: createAddon answers ${Object.keys(HANDLER_OF).join(', ')}; remove it`,
      });
      return;
    }
    if (typeof handlers[HANDLER_OF[name]] !== 'function') {
      issues.push({
        path,
        message: `"${name}" is declared but handlers.${HANDLER_OF[name]} is missing: add the handler, or remove "${name}" from resources`,
        effect: `every ${name} request would answer 404`,
      });
    }
  });
  for (const [resource, key] of Object.entries(HANDLER_OF)) {
    const given = handlers[key];
    if (given === undefined) continue;
    if (typeof given !== 'function') {
      issues.push({ path: `handlers.${key}`, message: 'is not a function' });
      continue;
    }
    if (!declared.has(resource)) {
      issues.push({
        path: `handlers.${key}`,
        message: `answers "${resource}", which the manifest's resources do not declare: add "${resource}" to resources, or remove the handler`,
        effect: 'the client never asks for it',
      });
    }
  }
  for (const key of Object.keys(handlers)) {
    if (!Object.values<string>(HANDLER_OF).includes(key) && handlers[key] !== undefined) {
      issues.push({
        path: `handlers.${key}`,
        message: `is not a handler createAddon knows (${Object.values(HANDLER_OF).join(', ')})`,
      });
    }
  }
  return issues;
}
