/**
 * The streaming XMLTV reader: chunks in, batches of records out, about one batch per chunk so a
 * consumer inserting batches holds memory flat whatever the guide's size. Our tokenizer
 * (xml-tokenizer.ts: htmlparser2's XML-mode tokenizer state for state, in one loop; htmlparser2's
 * own with `tokenizer: 'htmlparser2'`) does the tokenising (it recovers from an unescaped `&`
 * where strict parsers stop); it never reads a DTD and we decode only XML's five entities and
 * numeric references, so entity bombs and external entities have nothing to expand.
 */
import type { GuideChannel, Programme, SourceWarning } from '../records.js';
import { ChunkDecoder } from './decode.js';
import { resolveXmltvLimits, type XmltvLimits } from './limits.js';
import { XmltvMapper } from './mapper.js';
import { createXmltvTimeParser } from './time.js';
import { TokenHandler } from './tokens.js';
import { WarningSink } from './warnings.js';
import { DocumentWindow } from './window.js';
import { XmlTokenizer } from './xml-tokenizer.js';

/** What one step of the reader yields. */
export interface XmltvBatch {
  readonly channels: GuideChannel[];
  readonly programmes: Programme[];
  readonly warnings: SourceWarning[];
  /** Programme texts (titles, sub-titles, categories, descriptions) cut to their limits, when any. */
  readonly textsCut?: number;
}

export interface ReadXmltvOptions {
  /** File path or URL, named in warnings and errors. */
  readonly source: string;
  /** Hours added to every time (`tvg-shift`, operator setting); fractional or negative. */
  readonly shiftHours?: number;
  /** Minutes east of UTC for times written without an offset (default 0). */
  readonly defaultOffsetMinutes?: number;
  readonly limits?: Partial<XmltvLimits>;
  /**
   * May errors quote the guide's text (default true)? False for a guide the operator did not
   * name (a playlist's `url-tvg`): its answer is never echoed into errors and logs.
   */
  readonly quote?: boolean;
  /**
   * The tokenizer: ours (xml-tokenizer.ts, the default) or htmlparser2's, the plain path it is held
   * equal to (also chosen by the environment variable MARQUEE_XMLTV_TOKENIZER=htmlparser2).
   */
  readonly tokenizer?: 'marquee' | 'htmlparser2';
}

/** The tokenizer a reader uses: the option, else the environment's choice, else ours. */
export function chooseTokenizer(option: ReadXmltvOptions['tokenizer']): 'marquee' | 'htmlparser2' {
  return option ?? (process.env.MARQUEE_XMLTV_TOKENIZER === 'htmlparser2' ? 'htmlparser2' : 'marquee');
}

/** Text handed to the parser at once: a caller passing one huge string still gets bounded batches. */
const SLICE_CHARS = 64 * 1024;

/**
 * Bytes decoded into one string. V8 puts a string over 128 KiB straight into the old generation
 * (a large object), so decoding a file's 256 KiB reads whole made a long-lived-looking string of
 * every chunk and kept the major collector marking: pieces of 32 KiB stay young even as two-byte
 * text and die in the next scavenge. Reading the 370 MB benchmark guide: 6.2 s -> 4.4 s.
 */
const DECODE_BYTES = 32 * 1024;

/**
 * Reads an XMLTV guide from decompressed chunks. Bad records become warnings; a document that is
 * not XMLTV or breaks a limit throws MarqueeError SOURCE_INVALID / SOURCE_TOO_LARGE (after the
 * batches already yielded).
 *
 * @example
 * for await (const batch of readXmltv(createReadStream('guide.xml'), { source: 'guide.xml' })) {
 *   store.insert(batch.channels, batch.programmes);
 * }
 */
export async function* readXmltv(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ReadXmltvOptions,
): AsyncGenerator<XmltvBatch, void, undefined> {
  const limits = resolveXmltvLimits(options.limits);
  const parseTime = createXmltvTimeParser(options);
  const warnings = new WarningSink(options.source, limits.maxWarnings);
  const window = new DocumentWindow();
  const tokens = new TokenHandler(window, limits);
  const mapper = new XmltvMapper(
    {
      source: options.source,
      limits,
      window,
      warnings,
      parseTime,
      ...(options.quote === false ? { quote: false } : {}),
    },
    tokens.names,
  );
  tokens.attach(mapper);
  // Entities are decoded by the mapper, only in the text it keeps: the tokenizer runs far faster without.
  // htmlparser2 is loaded only for its path: it was two thirds of loading the reader (about 35
  // ms), which the parsing thread of an import spends before its first chunk.
  const tokenizer =
    chooseTokenizer(options.tokenizer) === 'htmlparser2'
      ? (await import('./fast-tokenizer.js')).createFastTokenizer({ xmlMode: true, decodeEntities: false }, tokens)
      : new XmlTokenizer(tokens);
  const decoder = new ChunkDecoder(warnings);
  let replacementSeen = false;

  const feed = (text: string): void => {
    const offset = window.end;
    window.push(text);
    tokenizer.write(text);
    if (decoder.sawBytes && !replacementSeen) {
      const bad = text.indexOf('\uFFFD');
      if (bad >= 0) {
        replacementSeen = true;
        const message = `bytes that are not valid ${decoder.encoding} are shown as \uFFFD (the file's encoding is not what it declares)`;
        warnings.add(window.lineAt(offset + bad), message);
      }
    }
    // Everything before `reported` was handed to us; what follows is one unfinished tag, comment,
    // CDATA section or declaration that must stay in memory until it ends.
    if (window.end - tokens.reported > limits.maxMarkupLength) {
      const message = `a tag, comment or CDATA section is longer than ${limits.maxMarkupLength} characters`;
      throw mapper.fail('SOURCE_TOO_LARGE', tokens.reported, message);
    }
    window.release(Math.min(tokens.reported, mapper.heldFrom()));
  };

  for await (const chunk of chunks) {
    for (const text of textPieces(decoder, chunk)) {
      feed(text);
      const batch = takeBatch(mapper, warnings);
      if (batch !== undefined) yield batch;
    }
  }
  const rest = decoder.flush();
  if (rest !== '') feed(rest);
  tokenizer.end();
  warnings.finish();
  const batch = takeBatch(mapper, warnings);
  if (batch !== undefined) yield batch;
}

/**
 * The text of `chunk` in pieces the parser takes one at a time: bytes decoded at most
 * DECODE_BYTES at a time (so each string stays young), a string cut every SLICE_CHARS (so each
 * batch stays bounded). Empty pieces are left out.
 */
function* textPieces(decoder: ChunkDecoder, chunk: Uint8Array | string): Generator<string> {
  if (typeof chunk === 'string') {
    const text = decoder.decode(chunk);
    for (let i = 0; i < text.length; i += SLICE_CHARS)
      yield text.length <= SLICE_CHARS ? text : text.slice(i, i + SLICE_CHARS);
    return;
  }
  // An empty chunk is decoded too: it marks the input as bytes (ChunkDecoder.sawBytes).
  let at = 0;
  do {
    const text = decoder.decode(chunk.length <= DECODE_BYTES ? chunk : chunk.subarray(at, at + DECODE_BYTES));
    if (text !== '') yield text;
    at += DECODE_BYTES;
  } while (at < chunk.length);
}

function takeBatch(mapper: XmltvMapper, warnings: WarningSink): XmltvBatch | undefined {
  const cut = mapper.takeCut();
  if (!mapper.output.pending() && !warnings.pending() && cut === 0) return undefined;
  const { channels, programmes } = mapper.output.take();
  return cut === 0
    ? { channels, programmes, warnings: warnings.take() }
    : { channels, programmes, warnings: warnings.take(), textsCut: cut };
}
