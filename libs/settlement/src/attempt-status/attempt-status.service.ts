import { Inject, Injectable } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { attemptSnapshot } from '@svc/domain';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { type FeatureReply, type FeatureRequest } from '@svc/messaging';
import { loadAttempt } from '../attempt-store/attempt-stream';

/** `settlement.status`: the canonical snapshot, always rebuilt from the attempt stream; a read never writes. */
@Injectable()
export class AttemptStatusService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
  ) {}

  async status(request: FeatureRequest<null>): Promise<FeatureReply> {
    const loaded = await loadAttempt(this.store, request.resourceId ?? '', request.partnerId);
    if (!loaded) return { ok: false, code: 'attempt_not_found', message: 'no attempt with this id' };
    const body = attemptSnapshot(loaded.record, {
      chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`),
    });
    return { ok: true, body, resource: null };
  }
}
