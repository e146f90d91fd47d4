import { nonceDecider, NonceRefusedError, type NonceState, nonceStreamId, type UseNonce } from '@svc/domain';
import { aggregateStream, type EventStore, handleCommand, StreamHistoryExpiredError } from '@svc/event-store';
import { NONCE_RETENTION_SECONDS } from '../../nonce/nonce-retention';
import { type NonceStore } from '../../nonce/nonce-store.port';

/**
 * Nonce bindings as streams, `nonce-<partnerId>-<nonce>` with maxAge NONCE_RETENTION_SECONDS, for the stores that
 * drop whole streams (EventStoreDB scavenges them) or live in memory. The stream keeps its revision once its event
 * expired, so an expired binding stays used (handleCommand's 'refuse').
 */
export class EventStoreNonceStore implements NonceStore {
  constructor(private readonly store: EventStore) {}

  async binding(partnerId: string, nonce: string): Promise<NonceState> {
    return (await aggregateStream(this.store, nonceStreamId(partnerId, nonce), nonceDecider)).state;
  }

  async use(partnerId: string, nonce: string, command: UseNonce): Promise<boolean> {
    try {
      // One step per tuple, recorded once: the identical tuple's concurrent re-bind is a no-op, not a conflict.
      await handleCommand(this.store, nonceStreamId(partnerId, nonce), nonceDecider, command, {
        stepId: command.data.tupleHash,
        once: true,
        maxAgeSeconds: NONCE_RETENTION_SECONDS,
      });
      return true;
    } catch (err) {
      if (err instanceof NonceRefusedError || err instanceof StreamHistoryExpiredError) return false;
      throw err;
    }
  }
}
