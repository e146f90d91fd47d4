import { type Server } from 'node:http';
import { type Socket } from 'node:net';

/** How often the connections with answers waiting are looked at. */
const CHECK_INTERVAL_MS = 1000;

/**
 * Closes a connection whose client stops reading (a slow reader, issue 23): once what waits to be sent to it has not
 * gone down for `stallTimeoutMs` (HTTP_SEND_TIMEOUT_MS), the connection is destroyed, and with it what it held.
 * Node's own socket timeout cannot do this: its HTTP server clears it on the second request of a keep-alive
 * connection, and a pipelined client never gets it back. A connection with nothing waiting is never touched here
 * (the keep-alive and request timeouts see to those), nor is one whose client reads, however slowly it is answered.
 * Memory: one entry per open connection; one pass a second over those with bytes waiting.
 */
export function cutStalledReaders(
  server: Server,
  stallTimeoutMs: number,
  now: () => number = Date.now,
): void {
  const waiting = new Map<Socket, { bytes: number; since: number }>();
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      waiting.delete(socket);
    });
  });
  const timer = setInterval(() => {
    const at = now();
    for (const socket of open) {
      const bytes = socket.writableLength;
      const seen = waiting.get(socket);
      if (bytes === 0) waiting.delete(socket);
      else if (seen === undefined || bytes < seen.bytes) waiting.set(socket, { bytes, since: at });
      else if (at - seen.since >= stallTimeoutMs) socket.destroy();
    }
  }, CHECK_INTERVAL_MS);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
