import {
  type BeginRequest,
  type IdempotencyCommand,
  idempotencyDecider,
  type IdempotencyOutcome,
  idempotencyStreamId,
} from '@svc/domain';
import { type EventStore, handleCommand, TooManyConcurrentAppendsError } from '@svc/event-store';
import { decidedOutcome } from '../../idempotency/decided-outcome';
import { type IdempotencyStore, type SettleRequest } from '../../idempotency/idempotency-store.port';

/** Re-decisions of a begin on concurrent appends before answering "in progress" (five tries in all). */
const BEGIN_RETRIES = 4;

/**
 * Idempotency-Keys as streams, `idempotency-<partnerId>-<keyDigest>` with maxAge = the retention, for the stores
 * that drop whole streams (EventStoreDB scavenges them) or live in memory. Appends name the revision they read, so
 * of concurrent first begins one appends and the others decide again on what it appended.
 */
export class EventStoreIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly store: EventStore,
    private readonly options: { retentionSeconds: number },
  ) {}

  async begin(partnerId: string, keyDigest: string, command: BeginRequest): Promise<IdempotencyOutcome> {
    try {
      const decision = await this.run(partnerId, keyDigest, command, `begin:${command.data.requestId}`, {
        maxRetries: BEGIN_RETRIES,
      });
      return decidedOutcome(command, decision);
    } catch (err) {
      if (err instanceof TooManyConcurrentAppendsError) return { kind: 'in_progress', retryAfterSeconds: 1 };
      throw err;
    }
  }

  async settle(partnerId: string, keyDigest: string, command: SettleRequest): Promise<void> {
    const step = command.type === 'CompleteRequest' ? 'complete' : 'release';
    await this.run(partnerId, keyDigest, command, `${step}:${command.data.requestId}`);
  }

  /** Each step is recorded at most once per run; the key's whole record expires after the retention. */
  private run(
    partnerId: string,
    keyDigest: string,
    command: IdempotencyCommand,
    stepId: string,
    options: { maxRetries?: number } = {},
  ) {
    return handleCommand(this.store, idempotencyStreamId(partnerId, keyDigest), idempotencyDecider, command, {
      stepId,
      once: true,
      ...options,
      maxAgeSeconds: this.options.retentionSeconds,
      expiredHistory: 'start_over',
    });
  }
}
