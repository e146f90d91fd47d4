import { createServer, type Socket } from 'node:net';
import { type AddressInfo } from 'node:net';

export interface BlackHole {
  url: string;
  /** Connections accepted so far. */
  readonly accepted: () => number;
  close(): Promise<void>;
}

/**
 * A partner endpoint that accepts the TCP connection and never answers (security review M8): every delivery try to it
 * lasts until the sender's own timeout. Closing it drops the held connections, so the sender's tries end at once.
 */
export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
