/** The per-address connection cap of the Node adapter's servers (plain, https and the redirect port). */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Connections accepted between two sweeps of the per-address cap's closed sockets. */
const SWEEP_EVERY_CONNECTIONS = 1_024;
/** At most this long after a connection arrives, the cap's closed sockets are let go. */
const SWEEP_AFTER_MS = 5_000;

/**
 * One address may hold `cap` connections; past that a new one is closed at once, so idle
 * connections from one host cannot take every file descriptor.
 *
 * A closed connection is noticed by its `destroyed` flag, not by a `close` listener: Node's
 * server adds and removes its own `close` listener on the socket for every response, and one
 * more listener there made every cached page about 1% slower (side by side, bench/README.md).
 * An address's sockets are swept when it reaches the cap, all of them every 1,024 connections
 * and 5 s after the last one arrived, so a closed socket is held at most that long.
 */
export function capConnections(server: Server, cap: number): { stop(): void } {
  const open = new Map<string, Set<Socket>>();
  let accepted = 0;
  let timer: NodeJS.Timeout | undefined;
  const sweepAll = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const [address, sockets] of open) {
      sweep(sockets);
      if (sockets.size === 0) open.delete(address);
    }
    if (open.size > 0) schedule();
  };
  const schedule = () => {
    timer ??= setTimeout(sweepAll, SWEEP_AFTER_MS).unref();
  };
  server.on('connection', (socket: Socket) => {
    if (++accepted % SWEEP_EVERY_CONNECTIONS === 0) sweepAll();
    const address = socket.remoteAddress ?? '';
    let sockets = open.get(address);
    if (sockets === undefined) {
      sockets = new Set();
      open.set(address, sockets);
    } else if (sockets.size >= cap) sweep(sockets);
    if (sockets.size >= cap) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    schedule();
  });
  return {
    stop() {
      clearTimeout(timer);
      timer = undefined;
      open.clear();
    },
  };
}

function sweep(sockets: Set<Socket>): void {
  for (const socket of sockets) if (socket.destroyed) sockets.delete(socket);
}
