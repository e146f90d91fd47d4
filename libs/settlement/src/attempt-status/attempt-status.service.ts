import { Inject, Injectable } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { attemptSnapshot, attemptStreamId } from '@svc/domain';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { attemptNotFound } from '../attempt-store/attempt-not-found';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { AttemptStatusCache } from './attempt-status.cache';
import { type ReadAttemptStatus } from './read-attempt-status.query';

/**
 * `settlement.status`: the canonical snapshot, folded from the attempt stream; a read never writes. Each read first
 * asks the store for the stream's newest revision (one indexed lookup, no event data): while it is the revision a
 * cached snapshot was folded at, that snapshot is served; otherwise the stream is read and folded again. So an answer
 * is exactly as fresh as the stream, and a hot attempt costs no stream read, parse or fold.
 */
@Injectable()
export class AttemptStatusService {
  private readonly cache = new AttemptStatusCache();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
  ) {}

  async status(query: ReadAttemptStatus): Promise<BusReply<typeof MessagePattern.status>> {
    const head = await this.store.readStreamRevision(attemptStreamId(query.attemptId));
    if (head === 'no_stream') return attemptNotFound();
    let entry = this.cache.at(query.attemptId, head);
    if (entry === undefined) {
      // Read as the owner would: the partner check below is the same for a fresh and a cached entry.
      const loaded = await loadAttempt(this.store, query.attemptId, null);
      if (!loaded) return attemptNotFound();
      const body = attemptSnapshot(loaded.record, {
        chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`),
      });
      entry = { revision: loaded.revision, partnerId: loaded.record.prepared.partnerId, body };
      this.cache.remember(query.attemptId, entry);
    }
    if (entry.partnerId !== query.partnerId) return attemptNotFound();
    return { ok: true, body: entry.body, resource: null };
  }
}
