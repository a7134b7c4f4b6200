/**
 * A handler that throws: the client gets 500 with a request id and no internals (a message may
 * hold a secret), and the stack is logged under that id, to the given logger or, with none, to stderr.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAddon } from '../src/addon/index.js';
import { createRequestHandler } from '../src/server/index.js';

function brokenAddon() {
  return createAddon({
    manifest: {
      id: 'org.test.broken',
      version: '1.0.0',
      name: 'Broken',
      description: '',
      resources: ['catalog'],
      types: ['movie'],
      catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
    },
    handlers: {
      catalog: () => {
        // What the README's example once did: a name that was never defined.
        const films = (globalThis as Record<string, unknown>).FILMS_NEVER_DEFINED as unknown[];
        return { metas: films.slice(0) as never };
      },
    },
  });
}

const get = (url: string) => ({ method: 'GET', url, header: () => undefined });

afterEach(() => vi.restoreAllMocks());

describe('a handler that throws', () => {
  it('answers 500, and logs the stack to stderr under the request id when no logger is given', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
    const res = await createRequestHandler(brokenAddon())(get('/catalog/movie/films.json'));
    expect(res.status).toBe(500);
    const body = JSON.parse(String(res.body));
    expect(body.error.code).toBe('HANDLER_FAILED');
    expect(body.error.message).toBe('Internal server error');
    expect(String(res.body)).not.toMatch(/slice|\n\s+at /);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('/catalog/movie/films.json');
    expect(printed[0]).toContain(`"requestId":"${body.error.requestId}"`);
    expect(printed[0]).toMatch(
      /TypeError: Cannot read properties of undefined[\s\S]*\n\s+at .*handler-errors\.test\.ts/,
    );
  });

  it('logs to the given logger instead, with the stack', async () => {
    const errors: Record<string, unknown>[] = [];
    const spy = vi.spyOn(console, 'error');
    const handle = createRequestHandler(brokenAddon(), { logger: { info() {}, error: (r) => void errors.push(r) } });
    const res = await handle(get('/catalog/movie/films.json'));
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.stack)).toMatch(/\n\s+at /);
    expect(spy).not.toHaveBeenCalled();
  });
});
