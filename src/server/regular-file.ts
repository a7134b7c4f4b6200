/**
 * Reading an operator's small files (a certificate, its key, the key ring) that may be replaced
 * while the server runs, without ever waiting on something that is not a file. Opening a FIFO for
 * reading waits for a writer, and reading it waits for data: a certificate path that became a
 * FIFO held a thread of libuv's pool for good, stopped every later reload, and kept the process
 * from exiting after SIGTERM. The file is opened without blocking (O_NONBLOCK: no wait for a
 * writer), and anything but a regular file (a FIFO, a socket, a device, a folder) is refused
 * before a byte is read, as is a file larger than the caller expects.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** Windows has no O_NONBLOCK (nor FIFOs at a path): there the flag is left out. */
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path that is not a regular file is, for the message. */
function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** The refusal of a path that is not a regular file, or of one over `maxBytes`; undefined when fine. */
function refusal(path: string, stat: Stats, maxBytes: number): NodeJS.ErrnoException | undefined {
  if (!stat.isFile()) {
    const kind = kindOf(stat);
    return Object.assign(new Error(`${path} is ${kind}, not a regular file`), {
      code: stat.isDirectory() ? 'EISDIR' : 'ENOTREG',
      kind,
    });
  }
  if (stat.size > maxBytes) {
    return Object.assign(new Error(`${path} is ${stat.size} bytes, more than the ${maxBytes} expected`), {
      code: 'EFBIG',
    });
  }
  return undefined;
}

/**
 * The bytes of the regular file at `path`; rejects (without waiting) when it is anything else, or
 * larger than `maxBytes`, with `code` ENOTREG, EISDIR or EFBIG (or the system's, ENOENT…).
 * @example const pem = await readRegularFile('/etc/marquee/tls/fullchain.pem', 1 << 20)
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, FLAGS);
  try {
    const problem = refusal(path, await handle.stat(), maxBytes);
    if (problem) throw problem;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** `readRegularFile` for the few synchronous places (the key ring, read between requests). */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, FLAGS);
  try {
    const problem = refusal(path, fstatSync(fd), maxBytes);
    if (problem) throw problem;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
