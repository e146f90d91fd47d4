import { createHash, randomUUID } from 'node:crypto';
import {
  beginOutcome,
  type BeginRequest,
  type IdempotencyCommand,
  idempotencyDecider,
  type IdempotencyOutcome,
  idempotencyStreamId,
  type RequestFingerprint,
} from '@svc/domain';
import { type EventStore, handleCommand, TooManyConcurrentAppendsError } from '@svc/event-store';
import { type ResourceRef } from '@svc/messaging';

export type BeginOutcome =
  Exclude<IdempotencyOutcome, { kind: 'run' }> | { kind: 'run'; ticket: IdempotencyTicket };

/** Handle for a running request: complete it with the resource it made, or release it. */
export interface IdempotencyTicket {
  streamId: string;
  /** Names this run: only the run that holds the key records its result. */
  requestId: string;
}

/** Re-decisions of a begin on concurrent appends before answering "in progress" (five tries in all). */
const BEGIN_RETRIES = 4;

/**
 * Records Idempotency-Keys per partner in the event store before the handler runs, through the idempotency
 * decider: concurrent requests with one key end with one run, and a run's late result after another took the key
 * over is dropped. A key whose record expired (retention) is new again.
 */
export class IdempotencyLedger {
  constructor(
    private readonly store: EventStore,
    private readonly options: { retentionSeconds: number; leaseMs: number },
  ) {}

  static streamId(partnerId: string, key: string): string {
    return idempotencyStreamId(partnerId, createHash('sha256').update(key, 'utf8').digest('hex'));
  }

  async begin(
    partnerId: string,
    key: string,
    fingerprint: RequestFingerprint,
    now: number,
  ): Promise<BeginOutcome> {
    const streamId = IdempotencyLedger.streamId(partnerId, key);
    const requestId = randomUUID();
    const command: BeginRequest = {
      type: 'BeginRequest',
      data: { fingerprint, requestId, now, leaseMs: this.options.leaseMs },
    };
    try {
      const { events, state } = await this.run(streamId, command, `begin:${requestId}`, BEGIN_RETRIES);
      // BeginRequest appends exactly when the outcome is 'run'; when it appended nothing, the outcome says why.
      const outcome = events.length > 0 ? ({ kind: 'run' } as const) : beginOutcome(command, state);
      return outcome.kind === 'run' ? { kind: 'run', ticket: { streamId, requestId } } : outcome;
    } catch (err) {
      if (err instanceof TooManyConcurrentAppendsError) return { kind: 'in_progress', retryAfterSeconds: 1 };
      throw err;
    }
  }

  async complete(
    ticket: IdempotencyTicket,
    resource: ResourceRef,
    httpStatus: number,
    now: number,
  ): Promise<void> {
    const { streamId, requestId } = ticket;
    await this.run(
      streamId,
      { type: 'CompleteRequest', data: { requestId, resource, httpStatus, now } },
      `complete:${requestId}`,
    );
  }

  async release(ticket: IdempotencyTicket, httpStatus: number, code: string, now: number): Promise<void> {
    const { streamId, requestId } = ticket;
    await this.run(
      streamId,
      { type: 'ReleaseRequest', data: { requestId, httpStatus, code, now } },
      `release:${requestId}`,
    );
  }

  /** Each step is recorded at most once per run; the key's whole record expires after the retention. */
  private run(streamId: string, command: IdempotencyCommand, stepId: string, maxRetries?: number) {
    return handleCommand(this.store, streamId, idempotencyDecider, command, {
      stepId,
      once: true,
      maxRetries,
      maxAgeSeconds: this.options.retentionSeconds,
      expiredHistory: 'start_over',
    });
  }
}
