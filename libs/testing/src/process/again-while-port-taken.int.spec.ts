import { createServer, type Server } from 'node:net';
import { findFreePort } from '../anvil/find-free-port';
import { againWhilePortTaken } from './again-while-port-taken';

/** A loopback server on `port`, or the listen error (EADDRINUSE when it is taken). */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const isAddressInUse = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EADDRINUSE';

describe('againWhilePortTaken (real loopback sockets)', () => {
  let taken: Server;
  let takenPort: number;
  beforeEach(async () => {
    taken = await listenOn(0);
    takenPort = (taken.address() as { port: number }).port;
  });
  afterEach(() => new Promise<void>((r) => taken.close(() => r())));

  it('starts again on a fresh port when the port found free was taken before it bound', async () => {
    const ports = [takenPort, takenPort];
    const retries: number[] = [];
    const server = await againWhilePortTaken(
      async () => listenOn(ports.shift() ?? (await findFreePort())),
      isAddressInUse,
      { onRetry: (n) => retries.push(n) },
    );
    try {
      expect(retries).toEqual([1, 2]);
      expect((server.address() as { port: number }).port).not.toBe(takenPort);
    } finally {
      server.close();
    }
  });

  it('gives up after its tries with the last error', async () => {
    let tries = 0;
    const failed = await againWhilePortTaken(
      () => {
        tries++;
        return listenOn(takenPort);
      },
      isAddressInUse,
      { tries: 3 },
    ).then(
      () => null,
      (err: NodeJS.ErrnoException) => err.code,
    );
    expect([failed, tries]).toEqual(['EADDRINUSE', 3]);
  });

  it('throws any other failure at once', async () => {
    let tries = 0;
    const failed = await againWhilePortTaken(() => {
      tries++;
      return listenOn(70_000); // not a port at all: a RangeError
    }, isAddressInUse).then(
      () => null,
      (err: Error) => err.name,
    );
    expect([failed, tries]).toEqual(['RangeError', 1]);
  });
});
