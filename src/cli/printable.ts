/**
 * Every line the CLI prints passes through here: names and titles come from playlists, guides,
 * library files and other people's add-ons, and an ESC or BEL in one would drive the operator's
 * terminal. Control characters are shown as `\xNN`; line feeds and tabs stay, and so do the
 * sequences the CLI writes itself: `\r` + erase line (progress on a terminal) and colours
 * (`marquee check` on a terminal; the checker strips control characters from what add-ons say).
 */

const UNPRINTABLE = /\r\x1b\[2K|\x1b\[[0-9;]{0,8}m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with control characters escaped.
 * @example printable('BBC\u001b[31m One\n') // 'BBC\\x1b[31m One\n'
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => (c.length > 1 ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** `stream` whose `write` of text goes through `printable` (everything else is the stream's own). */
export function printableStream<T extends NodeJS.WritableStream>(stream: T): T {
  return new Proxy(stream, {
    get(target, property, receiver) {
      if (property === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => boolean).call(
            target,
            typeof chunk === 'string' ? printable(chunk) : chunk,
            ...rest,
          );
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
