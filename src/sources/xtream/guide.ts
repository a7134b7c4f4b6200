/**
 * An account's guide as one guide source: `xmltv.php`, streamed through the XMLTV reader like any
 * guide. When it fails or answers something that is not XML (an error, an HTML page, an empty
 * body), the guide is built from `get_short_epg` per channel instead (short-epg.ts). The copy the
 * import keeps is what was read: the panel's XMLTV bytes as they came, or the XMLTV written from
 * the short guides.
 */
import { MarqueeError } from '../../errors.js';
import type { SourceCopySink, SourceOptions, SourceStream } from '../input/index.js';
import { openSource } from '../input/index.js';
import type { SourceWarning } from '../records.js';
import { apiUrl } from './account.js';
import type { XtreamClient } from './client.js';
import type { LiveStream } from './live.js';
import { shortEpgXmltv } from './short-epg.js';

/** Bytes looked at before deciding the answer is XML. */
const PEEK = 512;

/**
 * What the guide needs of the account's live streams (known once they were read, or read from
 * their copy): the first stream of each of the first channels `get_short_epg` is asked for (at
 * most MAX_SHORT_EPG_CHANNELS), and how many channels there are in all.
 */
export interface GuideChannels {
  readonly streams: readonly LiveStream[];
  /** Distinct guide channels (EPG ids, else streams) in all; default the streams' own. */
  readonly channels?: number;
  readonly timezone?: string;
}

/**
 * Opens the account's guide: `xmltv.php`, else the short guides of `channels()`.
 * @example const stream = await openXtreamGuide(client, () => live, { copyTo }, warn)
 */
export async function openXtreamGuide(
  client: XtreamClient,
  channels: () => GuideChannels | undefined,
  options: SourceOptions,
  warn: (warning: SourceWarning) => void,
): Promise<SourceStream> {
  const label = client.account.label;
  const copy = options.copyTo;
  const held = heldSink(copy);
  let why: string;
  try {
    const source = await openSource(apiUrl(client.account, 'xmltv.php'), { ...options, copyTo: held });
    if (source.notModified) throw new Error('answered "not modified" to a plain request');
    const iterator = source[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let size = 0;
    let ended = false;
    while (size < PEEK) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      size += next.value.length;
    }
    const start = Buffer.concat(head)
      .toString('utf8', 0, Math.min(size, PEEK))
      .replace(/^[\uFEFF\s]+/, '');
    if (/^<(?:\?xml|tv[\s>]|!DOCTYPE\s+tv|!--)/i.test(start)) {
      await held.release();
      return streamOf(
        source.metadata.location,
        head,
        ended ? undefined : iterator,
        () => source.close(),
        () => source.inflated,
      );
    }
    source.close();
    why =
      start === ''
        ? 'answered nothing'
        : /^</.test(start)
          ? 'answered an HTML page, not XMLTV'
          : 'answered something that is not XMLTV';
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const code = error instanceof MarqueeError ? `${error.code}: ` : '';
    why = `failed (${code}${(error as Error).message.replace(/^\S*xmltv\.php\S*: /, '')})`;
  }
  held.drop();
  const live = channels();
  if (live === undefined || live.streams.length === 0) {
    throw new MarqueeError(
      'SOURCE_UNREADABLE',
      `${label}: xmltv.php ${why}, and no live channel is known to ask get_short_epg for`,
    );
  }
  warn({ source: label, message: `xmltv.php ${why}; the guide comes from get_short_epg per channel instead` });
  const body = shortEpgXmltv(client, live.streams, live.timezone, warn, live.channels);
  return streamOf(
    `${label} get_short_epg`,
    [],
    teeTo(body, copy),
    () => void body.return(undefined),
    () => false,
  );
}

/** A copy sink that holds what it is given until the answer is known to be the guide (else drops it). */
function heldSink(target: SourceCopySink | undefined) {
  let held: Buffer[] | undefined = [];
  let dropped = false;
  return {
    async write(chunk: Buffer) {
      if (dropped || target === undefined) return;
      if (held) held.push(chunk);
      else await target.write(chunk);
    },
    async release() {
      const chunks = held ?? [];
      held = undefined;
      if (target) for (const c of chunks) await target.write(c);
    },
    drop() {
      dropped = true;
      held = undefined;
    },
  };
}

async function* teeTo(body: AsyncGenerator<Buffer>, copy: SourceCopySink | undefined): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    await copy?.write(chunk);
    yield chunk;
  }
}

/** A SourceStream of `head` then the rest of `rest`. */
function streamOf(
  location: string,
  head: Buffer[],
  rest: AsyncIterator<Buffer> | undefined,
  close: () => void,
  inflated: () => boolean,
): SourceStream {
  let iterated = false;
  return {
    notModified: false,
    metadata: { location },
    get inflated() {
      return inflated();
    },
    close,
    [Symbol.asyncIterator](): AsyncIterator<Buffer> {
      if (iterated) throw new MarqueeError('SOURCE_UNREADABLE', `${location}: a source stream can be read only once`);
      iterated = true;
      return {
        async next() {
          const first = head.shift();
          if (first !== undefined) return { done: false, value: first };
          if (rest === undefined) return { done: true, value: undefined };
          return rest.next();
        },
        async return() {
          close();
          await rest?.return?.(undefined).catch(() => {});
          return { done: true, value: undefined };
        },
      };
    },
  };
}
