import { nonceAvailable, nonceStreamId } from '@svc/domain';
import { type NonceStore } from './nonce-store.port';

export { AUTH_WINDOW_MS, NONCE_RETENTION_SECONDS } from './nonce-retention';

/**
 * v2 nonces, bound to the canonical request tuple (the nonce decider) in a NonceStore. Reuse is accepted only for
 * the identical tuple (a retried delivery of the same signed bytes); any other reuse is a conflict.
 */
export class NonceRegistry {
  constructor(private readonly store: NonceStore) {}

  /** The nonce's stream where the records are streams (memory store, EventStoreDB). */
  static streamId(partnerId: string, nonce: string): string {
    return nonceStreamId(partnerId, nonce);
  }

  /** True when the nonce is unused or bound to this very tuple. Reads only. */
  async isAvailable(partnerId: string, nonce: string, tupleHash: string): Promise<boolean> {
    return nonceAvailable(await this.store.binding(partnerId, nonce), tupleHash);
  }

  /** Binds the nonce to the tuple; false when another tuple holds it. */
  bind(partnerId: string, nonce: string, tupleHash: string, now: number): Promise<boolean> {
    return this.store.use(partnerId, nonce, { type: 'UseNonce', data: { tupleHash, now } });
  }
}
