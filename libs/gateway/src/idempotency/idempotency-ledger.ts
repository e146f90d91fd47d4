import { createHash, randomUUID } from 'node:crypto';
import { type EventStore, type ExpectedRevision, WrongExpectedVersionError } from '@svc/event-store';
import { type ResourceRef } from '@svc/messaging';
import {
  type BeginRequest,
  decideIdempotency,
  evolveIdempotency,
  type IdempotencyDecision,
  initialIdempotencyState,
} from './idempotency.decider';
import { type IdempotencyEvent } from './idempotency.events';

export type BeginOutcome =
  Exclude<IdempotencyDecision, { kind: 'run' }> | { kind: 'run'; ticket: IdempotencyTicket };

/** Handle for a running request: complete it with the resource it made, or release it. */
export interface IdempotencyTicket {
  streamId: string;
  revision: number;
}

/**
 * Records Idempotency-Keys per partner in the event store before the handler runs, and settles races
 * between concurrent requests with one key by expected revisions (re-read and re-decide on conflict).
 */
export class IdempotencyLedger {
  constructor(
    private readonly store: EventStore,
    private readonly options: { retentionSeconds: number; leaseMs: number },
  ) {}

  static streamId(partnerId: string, key: string): string {
    return `idempotency-${partnerId}-${createHash('sha256').update(key, 'utf8').digest('hex')}`;
  }

  async begin(
    partnerId: string,
    key: string,
    fingerprint: BeginRequest['fingerprint'],
    now: number,
  ): Promise<BeginOutcome> {
    const streamId = IdempotencyLedger.streamId(partnerId, key);
    let revisionHint: number | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const events = await this.store.readStream(streamId);
      const state = events.reduce(
        (s, e) => evolveIdempotency(s, e as unknown as IdempotencyEvent),
        initialIdempotencyState,
      );
      const decision = decideIdempotency({ fingerprint, now, leaseMs: this.options.leaseMs }, state);
      if (decision.kind !== 'run') return decision;
      const last = events.at(-1);
      const expected: ExpectedRevision = last ? last.revision : (revisionHint ?? 'no_stream');
      try {
        const result = await this.append(streamId, decision.event, expected);
        return { kind: 'run', ticket: { streamId, revision: result } };
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        // Someone else moved the stream (or its events expired but its revision stays): decide again.
        if (!last && typeof err.actual === 'number') revisionHint = err.actual;
      }
    }
    return { kind: 'in_progress', retryAfterSeconds: 1 };
  }

  async complete(
    ticket: IdempotencyTicket,
    resource: ResourceRef,
    httpStatus: number,
    now: number,
  ): Promise<void> {
    await this.append(
      ticket.streamId,
      { type: 'RequestCompleted', data: { resource, httpStatus, completedAt: now } },
      ticket.revision,
    );
  }

  async release(ticket: IdempotencyTicket, httpStatus: number, code: string, now: number): Promise<void> {
    await this.append(
      ticket.streamId,
      { type: 'RequestReleased', data: { httpStatus, code, releasedAt: now } },
      ticket.revision,
    );
  }

  private async append(
    streamId: string,
    event: IdempotencyEvent,
    expectedRevision: ExpectedRevision,
  ): Promise<number> {
    const result = await this.store.append(
      streamId,
      [{ id: randomUUID(), type: event.type, data: { ...event.data } }],
      {
        expectedRevision,
        maxAgeSeconds: this.options.retentionSeconds,
      },
    );
    return result.nextRevision;
  }
}
