/**
 * The streaming XMLTV reader: chunks in, batches of records out, about one batch per chunk so a
 * consumer inserting batches holds memory flat whatever the guide's size. htmlparser2 in XML mode
 * does the tokenising (it recovers from an unescaped `&` where strict parsers stop); it decodes
 * only XML's five entities and numeric references and never reads a DTD, so entity bombs and
 * external entities have nothing to expand.
 */
import { Parser } from 'htmlparser2';
import { MarqueeError } from '../../errors.js';
import type { GuideChannel, Programme, SourceWarning } from '../records.js';
import { ChunkDecoder } from './decode.js';
import { XmltvHandler } from './handler.js';
import { resolveXmltvLimits, type XmltvLimits } from './limits.js';
import { LineCounter } from './lines.js';
import { createXmltvTimeParser } from './time.js';
import { WarningSink } from './warnings.js';

/** What one step of the reader yields. */
export interface XmltvBatch {
  readonly channels: GuideChannel[];
  readonly programmes: Programme[];
  readonly warnings: SourceWarning[];
}

export interface ReadXmltvOptions {
  /** File path or URL, named in warnings and errors. */
  readonly source: string;
  /** Hours added to every time (`tvg-shift`, operator setting); fractional or negative. */
  readonly shiftHours?: number;
  /** Minutes east of UTC for times written without an offset (default 0). */
  readonly defaultOffsetMinutes?: number;
  readonly limits?: Partial<XmltvLimits>;
}

/** Text handed to the parser at once: a caller passing one huge string still gets bounded batches. */
const SLICE_CHARS = 64 * 1024;
/** Text kept behind the parser's position for line numbers of entities cut by a chunk boundary. */
const LINE_SLACK = 64;

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
  const lines = new LineCounter();
  const handler = new XmltvHandler({ source: options.source, limits, lines, warnings, parseTime });
  const parser = new Parser(handler, { xmlMode: true, decodeEntities: true });
  const decoder = new ChunkDecoder(warnings);
  let written = 0;
  let replacementSeen = false;

  const feed = (text: string): void => {
    lines.push(text);
    parser.write(text);
    if (decoder.sawBytes && !replacementSeen) {
      const bad = text.indexOf('\uFFFD');
      if (bad >= 0) {
        replacementSeen = true;
        warnings.add(
          lines.at(written + bad),
          `bytes that are not valid ${decoder.encoding} are shown as \uFFFD (the file's encoding is not what it declares)`,
        );
      }
    }
    written += text.length;
    // Everything before `progress` was reported to us; what follows is one unfinished tag,
    // comment, CDATA section or declaration that the parser must hold in memory.
    const progress = Math.max(parser.startIndex, parser.endIndex);
    if (written - progress > limits.maxMarkupLength) {
      const line = lines.at(progress);
      throw new MarqueeError(
        'SOURCE_TOO_LARGE',
        `${options.source}:${line}: a tag, comment or CDATA section is longer than ${limits.maxMarkupLength} characters`,
        { details: { source: options.source, line } },
      );
    }
    lines.release(progress - LINE_SLACK);
  };

  for await (const chunk of chunks) {
    const text = decoder.decode(chunk);
    for (let i = 0; i < text.length; i += SLICE_CHARS) {
      feed(text.length <= SLICE_CHARS ? text : text.slice(i, i + SLICE_CHARS));
      const batch = takeBatch(handler, warnings);
      if (batch !== undefined) yield batch;
    }
  }
  const rest = decoder.flush();
  if (rest !== '') feed(rest);
  handler.ending = true;
  parser.end();
  warnings.finish();
  const batch = takeBatch(handler, warnings);
  if (batch !== undefined) yield batch;
}

function takeBatch(handler: XmltvHandler, warnings: WarningSink): XmltvBatch | undefined {
  if (handler.channels.length === 0 && handler.programmes.length === 0 && !warnings.pending()) return undefined;
  const { channels, programmes } = handler.take();
  return { channels, programmes, warnings: warnings.take() };
}
