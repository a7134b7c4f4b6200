/**
 * For the reader's equality tests: everything one read yields, and the error it ends with. Not
 * exported from index.ts, and not built into dist/.
 */
import { isMarqueeError } from '../../errors.js';
import { type ReadXmltvOptions, readXmltv } from './read.js';

/** Every batch as yielded, then the error the read ended with (code, message, details), if any. */
export async function readOutcome(
  chunks: readonly (Uint8Array | string)[],
  tokenizer: NonNullable<ReadXmltvOptions['tokenizer']>,
  options: Partial<ReadXmltvOptions> = {},
) {
  const batches: unknown[] = [];
  try {
    for await (const batch of readXmltv(chunks, { source: 'g.xml', ...options, tokenizer })) batches.push(batch);
  } catch (error) {
    if (!isMarqueeError(error)) throw error;
    return { batches, error: { code: error.code, message: error.message, details: error.details } };
  }
  return { batches, error: undefined };
}
