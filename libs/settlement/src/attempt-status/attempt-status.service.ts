import { Inject, Injectable } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { attemptSnapshot } from '@svc/domain';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { attemptNotFound } from '../attempt-store/attempt-not-found';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { type ReadAttemptStatus } from './read-attempt-status.query';

/** `settlement.status`: the canonical snapshot, always rebuilt from the attempt stream; a read never writes. */
@Injectable()
export class AttemptStatusService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
  ) {}

  async status(query: ReadAttemptStatus): Promise<BusReply<typeof MessagePattern.status>> {
    const loaded = await loadAttempt(this.store, query.attemptId, query.partnerId);
    if (!loaded) return attemptNotFound();
    const body = attemptSnapshot(loaded.record, {
      chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`),
    });
    return { ok: true, body, resource: null };
  }
}
