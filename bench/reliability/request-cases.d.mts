import type fc from 'fast-check';

/** One generated request: method, raw path with query, headers (lower-case names), optional body. */
export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Partial<Record<string, string>>;
  readonly body: string | undefined;
}

export const METHODS: readonly string[];
export function requestArbitrary(fcModule: typeof fc, known: readonly string[]): fc.Arbitrary<FuzzRequest>;
export const INTERNALS: RegExp;
export function answerProblems(answer: { status: number; headers: Record<string, unknown>; body: string }): string[];
