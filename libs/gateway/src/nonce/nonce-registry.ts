import { nonceAvailable, nonceDecider, NonceRefusedError, nonceStreamId } from '@svc/domain';
import { aggregateStream, type EventStore, handleCommand, StreamHistoryExpiredError } from '@svc/event-store';

/** Clock skew allowed either way (spec: 5 minutes). */
export const AUTH_WINDOW_MS = 5 * 60 * 1000;
/**
 * A nonce binding lives as long as a request carrying it could still pass the timestamp check (the whole
 * ±5 min window, 10 min) plus the spec's 60 s margin.
 */
export const NONCE_RETENTION_SECONDS = (2 * AUTH_WINDOW_MS) / 1000 + 60;

/**
 * v2 nonces, bound to the canonical request tuple in `nonce-<partnerId>-<nonce>` (the nonce decider). Reuse is
 * accepted only for the identical tuple (a retried delivery of the same signed bytes); any other reuse is a conflict.
 */
export class NonceRegistry {
  constructor(private readonly store: EventStore) {}

  static streamId(partnerId: string, nonce: string): string {
    return nonceStreamId(partnerId, nonce);
  }

  /** True when the nonce is unused or bound to this very tuple. Reads only. */
  async isAvailable(partnerId: string, nonce: string, tupleHash: string): Promise<boolean> {
    const { state } = await aggregateStream(this.store, nonceStreamId(partnerId, nonce), nonceDecider);
    return nonceAvailable(state, tupleHash);
  }

  /** Binds the nonce to the tuple; false when another tuple holds it (or held it: an expired binding stays used). */
  async bind(partnerId: string, nonce: string, tupleHash: string, now: number): Promise<boolean> {
    try {
      // One step per tuple, recorded once: the identical tuple's concurrent re-bind is a no-op, not a conflict.
      await handleCommand(
        this.store,
        nonceStreamId(partnerId, nonce),
        nonceDecider,
        { type: 'UseNonce', data: { tupleHash, now } },
        { stepId: tupleHash, once: true, maxAgeSeconds: NONCE_RETENTION_SECONDS },
      );
      return true;
    } catch (err) {
      if (err instanceof NonceRefusedError || err instanceof StreamHistoryExpiredError) return false;
      throw err;
    }
  }
}
