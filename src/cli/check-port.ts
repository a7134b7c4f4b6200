import { createServer } from 'node:net';

/**
 * Fail before the import and warm-up (seconds) when the port cannot be had, instead of after them.
 * The port is let go at once; `listen` takes it again when the add-on is ready.
 * @example const problem = await checkPort(7000, '127.0.0.1') // undefined, or the sentence to print
 */
export async function checkPort(port: number, host: string, flag = '--port'): Promise<string | undefined> {
  if (port === 0) return undefined;
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use (another marquee serve?): stop that program, or choose another port with ${flag}`
          : error.code === 'EACCES'
            ? `port ${port} on ${host} needs privileges: choose a port above 1023 with ${flag}`
            : `cannot listen on ${host}:${port}: ${error.message}`,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
}
