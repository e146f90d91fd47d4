import { eventIdFrom, type EventStore, WrongExpectedVersionError } from '@svc/event-store';

/** Clock skew allowed either way (spec: 5 minutes). */
export const AUTH_WINDOW_MS = 5 * 60 * 1000;
/**
 * A nonce binding lives as long as a request carrying it could still pass the timestamp check (the whole
 * ±5 min window, 10 min) plus the spec's 60 s margin.
 */
export const NONCE_RETENTION_SECONDS = (2 * AUTH_WINDOW_MS) / 1000 + 60;

/**
 * v2 nonces, bound to the canonical request tuple in `nonce-<partnerId>-<nonce>`. Reuse is accepted only for
 * the identical tuple (a retried delivery of the same signed bytes); any other reuse is a conflict.
 */
export class NonceRegistry {
  constructor(private readonly store: EventStore) {}

  static streamId(partnerId: string, nonce: string): string {
    return `nonce-${partnerId}-${nonce}`;
  }

  /** True when the nonce is unused or bound to this very tuple. Reads only. */
  async isAvailable(partnerId: string, nonce: string, tupleHash: string): Promise<boolean> {
    const events = await this.store.readStream(NonceRegistry.streamId(partnerId, nonce));
    return events.every((e) => e.data['tupleHash'] === tupleHash);
  }

  /** Binds the nonce to the tuple; false when another tuple holds it (or held it: an expired binding stays used). */
  async bind(partnerId: string, nonce: string, tupleHash: string, now: number): Promise<boolean> {
    const streamId = NonceRegistry.streamId(partnerId, nonce);
    try {
      // A deterministic event id makes the identical tuple's re-bind an idempotent no-op.
      await this.store.append(
        streamId,
        [{ id: eventIdFrom(streamId, tupleHash), type: 'NonceUsed', data: { tupleHash, usedAt: now } }],
        { expectedRevision: 'no_stream', maxAgeSeconds: NONCE_RETENTION_SECONDS },
      );
      return true;
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) return false;
      throw err;
    }
  }
}
