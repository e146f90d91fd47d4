import { nonceAvailable } from '@svc/domain';
import { bucketToWrite } from '../records/event-store/nonce-buckets';
import { type NonceStore } from './nonce-store.port';

export { AUTH_WINDOW_MS, NONCE_RETENTION_SECONDS } from './nonce-retention';

/**
 * v2 nonces, bound to the canonical request tuple (the nonce decider) in a NonceStore. Reuse is accepted only for
 * the identical tuple (a retried delivery of the same signed bytes); any other reuse is a conflict.
 */
export class NonceRegistry {
  constructor(private readonly store: NonceStore) {}

  /**
   * Where the records are streams (memory store, EventStoreDB): the bucket stream a bind of the nonce at `at` (epoch
   * ms) appends to, shared with the partner's other nonces of its shard and time window.
   */
  static streamId(partnerId: string, nonce: string, at: number): string {
    return bucketToWrite(partnerId, nonce, at).streamId;
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
