import { createHash, randomUUID } from 'node:crypto';
import {
  type BeginRequest,
  type IdempotencyOutcome,
  idempotencyStreamId,
  type RequestFingerprint,
} from '@svc/domain';
import { type ResourceRef } from '@svc/messaging';
import { type IdempotencyStore } from './idempotency-store.port';

export type BeginOutcome =
  Exclude<IdempotencyOutcome, { kind: 'run' }> | { kind: 'run'; ticket: IdempotencyTicket };

/** Handle for a running request: complete it with the resource it made, or release it. */
export interface IdempotencyTicket {
  partnerId: string;
  /** sha256 of the key, in hex: how stores name the key. */
  keyDigest: string;
  /** Names this run: only the run that holds the key records its result. */
  requestId: string;
}

/**
 * Records Idempotency-Keys per partner before the handler runs, through the idempotency decider (an
 * IdempotencyStore): concurrent requests with one key end with one run, and a run's late result after another
 * took the key over is dropped. A key whose record expired (retention) is new again.
 */
export class IdempotencyLedger {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly options: { leaseMs: number },
  ) {}

  static keyDigest(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }

  /** The key's stream where the records are streams (memory store, EventStoreDB). */
  static streamId(partnerId: string, key: string): string {
    return idempotencyStreamId(partnerId, IdempotencyLedger.keyDigest(key));
  }

  async begin(
    partnerId: string,
    key: string,
    fingerprint: RequestFingerprint,
    now: number,
  ): Promise<BeginOutcome> {
    const keyDigest = IdempotencyLedger.keyDigest(key);
    const requestId = randomUUID();
    const command: BeginRequest = {
      type: 'BeginRequest',
      data: { fingerprint, requestId, now, leaseMs: this.options.leaseMs },
    };
    const outcome = await this.store.begin(partnerId, keyDigest, command);
    return outcome.kind === 'run' ? { kind: 'run', ticket: { partnerId, keyDigest, requestId } } : outcome;
  }

  complete(ticket: IdempotencyTicket, resource: ResourceRef, httpStatus: number, now: number): Promise<void> {
    const { partnerId, keyDigest, requestId } = ticket;
    return this.store.settle(partnerId, keyDigest, {
      type: 'CompleteRequest',
      data: { requestId, resource, httpStatus, now },
    });
  }

  release(ticket: IdempotencyTicket, httpStatus: number, code: string, now: number): Promise<void> {
    const { partnerId, keyDigest, requestId } = ticket;
    return this.store.settle(partnerId, keyDigest, {
      type: 'ReleaseRequest',
      data: { requestId, httpStatus, code, now },
    });
  }
}
