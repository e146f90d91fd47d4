import { type Server } from 'node:http';
import { type Socket } from 'node:net';
import { clientAddressKey } from '../rate-limit/client-key';
import { writeRawErrorResponse } from './raw-error-response';

export interface ConnectionCap {
  /** Connections held open at once, all clients together (MAX_CONNECTIONS). */
  max: number;
  /** Connections one client address (IPv6: its /64) may hold open at once (MAX_CONNECTIONS_PER_CLIENT). */
  perClient: number;
  /**
   * Connections one client address may open a second, in bursts of twice as many
   * (MAX_NEW_CONNECTIONS_PER_CLIENT_PER_SECOND): a client that opens one per request, as fast as it can, is refused
   * at connect, where a refusal costs a small fraction of an answered request. Default: no bound.
   */
  newPerClientPerSecond?: number;
  now?: () => number;
  /** A peer whose connections carry many clients (a trusted proxy, TRUST_PROXY): held to the total cap only. */
  sharedPeer?: (address: string) => boolean;
}

/**
 * Caps the connections a server holds open at once (MAX_CONNECTIONS), and each client's share of them
 * (MAX_CONNECTIONS_PER_CLIENT), so that one client cannot take the cap from everyone else (issue 23, N-M4). A
 * connection past its client's share is answered at once with `429 client_connection_limit_reached`, one past the
 * total with `503 connection_limit_reached` (envelope, Retry-After, Connection: close), and never reaches the HTTP
 * parser, so nothing it sends is read or run. Node's own `maxConnections` would drop it without a word. Memory: one
 * entry per client address with a connection open.
 */
export function capConnections(
  server: Server,
  cap: ConnectionCap,
  options: { apiVersionHeader: boolean },
): void {
  let open = 0;
  const perClient = new Map<string, number>();
  const opening = cap.newPerClientPerSecond === undefined ? null : new OpeningRate(cap.newPerClientPerSecond);
  const now = cap.now ?? Date.now;
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    const address = socket.remoteAddress ?? '';
    const client = cap.sharedPeer?.(address) ? null : clientAddressKey(address);
    const mine = client === null ? 0 : (perClient.get(client) ?? 0);
    if (client !== null && mine >= cap.perClient) {
      refuse(socket, {
        code: 'client_connection_limit_reached',
        message: `this address holds its maximum of ${cap.perClient} connections to this instance`,
      });
      return true;
    }
    if (client !== null && opening !== null && !opening.take(client, now())) {
      refuse(socket, {
        code: 'client_connection_limit_reached',
        message: `this address opens more than ${opening.perSecond} connections a second to this instance`,
      });
      return true;
    }
    if (open >= cap.max) {
      refuse(socket, {
        code: 'connection_limit_reached',
        message: `this instance holds its maximum of ${cap.max} connections`,
      });
      return true;
    }
    open++;
    if (client !== null) perClient.set(client, mine + 1);
    socket.once('close', () => {
      open--;
      if (client === null) return;
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    return emit(event, ...args);
  }) as Server['emit'];

  function refuse(
    socket: Socket,
    refusal: { code: 'client_connection_limit_reached' | 'connection_limit_reached'; message: string },
  ): void {
    socket.on('error', () => socket.destroy());
    socket.resume(); // read and drop whatever it sends, so its close is seen at once
    writeRawErrorResponse(socket, { ...refusal, retryAfterSeconds: 1 }, options);
  }
}

/** Buckets kept before full ones (which hold nothing a new bucket would not) are dropped. */
const PRUNE_ABOVE = 10_000;

/** A token bucket per client address: `perSecond` connections a second, bursts of twice as many. */
class OpeningRate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;

  constructor(readonly perSecond: number) {
    this.burst = 2 * perSecond;
  }

  take(client: string, now: number): boolean {
    const bucket = this.buckets.get(client);
    const tokens = bucket
      ? Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.perSecond) / 1000)
      : this.burst;
    if (tokens < 1) {
      this.buckets.set(client, { tokens, at: now });
      return false;
    }
    this.buckets.set(client, { tokens: tokens - 1, at: now });
    if (this.buckets.size > PRUNE_ABOVE) this.prune(now);
    return true;
  }

  private prune(now: number): void {
    for (const [client, { tokens, at }] of this.buckets)
      if (tokens + ((now - at) * this.perSecond) / 1000 >= this.burst) this.buckets.delete(client);
  }
}
