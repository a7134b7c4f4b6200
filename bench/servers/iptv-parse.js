/**
 * The comparison for the import benchmark: @iptv/xmltv's parser on the same guide, parse only
 * (no store). It takes the whole document as one string, so the file is read whole first.
 *
 * Usage: node --max-old-space-size=12288 bench/servers/iptv-parse.js GUIDE.xml
 * Prints one JSON line: { readMs, parseMs, channels, programmes }.
 */
import { readFileSync } from 'node:fs';
import { parseXmltv } from '@iptv/xmltv';

const t0 = performance.now();
const text = readFileSync(process.argv[2], 'utf8');
const t1 = performance.now();
const parsed = parseXmltv(text);
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({
    readMs: t1 - t0,
    parseMs: t2 - t1,
    channels: parsed.channels?.length ?? 0,
    programmes: parsed.programmes?.length ?? 0,
  })}\n`,
);
