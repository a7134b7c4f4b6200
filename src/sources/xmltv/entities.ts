/**
 * Entity decoding, done by us rather than htmlparser2: its tokenizer runs about half again as fast
 * with decoding off, and only the few strings the guide model keeps ever need decoding. XML
 * defines five named entities and numeric references; a DTD could declare more, but DTDs are
 * never read (that is how entity bombs and external entities are refused), so any other
 * `&name;` is kept as written, and so is a bare `&`.
 */

/** What was kept as written: an unknown `&name;`, a bad `&#...;`, or a `&` that starts no reference. */
export type EntityProblem = 'unknown' | 'invalid' | 'bare';

/** Called for each reference kept as written, with its offset in the decoded string's source. */
export type EntityReport = (problem: EntityProblem, name: string, offset: number) => void;

/** Longer names are not references: the `&` is bare. */
const MAX_NAME = 32;

/**
 * Decodes `&amp; &lt; &gt; &quot; &apos;` and `&#N;`/`&#xH;`; keeps everything else as written.
 *
 * @example decodeXmlText('Tom &amp; Jerry &#x263A; &nbsp;') === 'Tom & Jerry ☺ &nbsp;'
 */
export function decodeXmlText(text: string, report?: EntityReport): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    let end = amp + 1;
    const limit = Math.min(text.length, amp + 2 + MAX_NAME);
    while (end < limit && isNameChar(text.charCodeAt(end))) end++;
    if (end === amp + 1 || end >= text.length || text.charCodeAt(end) !== 59) {
      report?.('bare', '', amp);
      amp = text.indexOf('&', amp + 1);
      continue;
    }
    const name = text.slice(amp + 1, end);
    const decoded = name.charCodeAt(0) === 35 ? numeric(name) : named(name);
    if (decoded === undefined) {
      report?.(name.charCodeAt(0) === 35 ? 'invalid' : 'unknown', name, amp);
      amp = text.indexOf('&', end + 1);
      continue;
    }
    out += text.slice(last, amp) + decoded;
    last = end + 1;
    amp = text.indexOf('&', last);
  }
  return out + text.slice(last);
}

function named(name: string): string | undefined {
  switch (name) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
    default:
      return undefined;
  }
}

/** `#233` or `#xE9`: a code point XML allows (no NUL, no lone surrogate, at most U+10FFFF). */
function numeric(name: string): string | undefined {
  const hex = name.charCodeAt(1) === 120 || name.charCodeAt(1) === 88;
  const digits = name.slice(hex ? 2 : 1);
  if (digits.length === 0 || digits.length > 8 || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return String.fromCodePoint(code);
}

/** Letters, digits, `#`, `_`, `-`, `.`, `:` and anything past ASCII. */
function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 58) ||
    c === 35 ||
    c === 95 ||
    c === 45 ||
    c === 46 ||
    c > 127
  );
}

/** The once-only warning kind of a reference kept as written: one warning per entity name. */
export function entityWarningKind(problem: EntityProblem, name: string): string {
  return problem === 'bare' ? 'ampersand' : `entity ${name}`;
}

/** What a warning says about a reference kept as written. */
export function entityWarningMessage(problem: EntityProblem, name: string): string {
  if (problem === 'bare') return 'an unescaped & is kept as written (it should be &amp;)';
  if (problem === 'invalid') return `character reference &${name}; is not a valid character; kept as written`;
  return `unknown entity &${name}; kept as written (XML defines only &amp; &lt; &gt; &quot; &apos; and numeric references; DTD entities are never expanded)`;
}
