import { type Server } from 'node:http';
import { type Socket } from 'node:net';
import { writeRawErrorResponse } from './raw-error-response';

/**
 * Caps the connections a server holds open at once (MAX_CONNECTIONS). One more is answered at once with a complete
 * `503 connection_limit_reached` (envelope, Retry-After, Connection: close) and never reaches the HTTP parser, so
 * nothing it sends is read or run. Node's own `maxConnections` would drop it without a word.
 */
export function capConnections(server: Server, max: number, options: { apiVersionHeader: boolean }): void {
  let open = 0;
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    if (open >= max) {
      socket.on('error', () => socket.destroy());
      socket.resume(); // read and drop whatever it sends, so its close is seen at once
      writeRawErrorResponse(
        socket,
        {
          code: 'connection_limit_reached',
          message: `this instance holds its maximum of ${max} connections`,
          retryAfterSeconds: 1,
        },
        options,
      );
      return true;
    }
    open++;
    socket.once('close', () => open--);
    return emit(event, ...args);
  }) as Server['emit'];
}
