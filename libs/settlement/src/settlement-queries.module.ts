import { Module } from '@nestjs/common';
import { MessagePattern } from '@svc/messaging';
import { AttemptStatusHandler } from './attempt-status/attempt-status.handler';
import { AttemptStatusService } from './attempt-status/attempt-status.service';
import { AttemptLookupsHandler } from './lookups/attempt-lookups.handler';
import { AttemptLookupsReadModel } from './lookups/attempt-lookups.read-model';
import { AttemptLookupsService } from './lookups/attempt-lookups.service';

/** The read-only bus patterns SettlementQueriesModule serves: none of them writes, any process may serve them. */
export const SETTLEMENT_QUERY_PATTERNS = [
  MessagePattern.status,
  MessagePattern.searchAttempts,
  MessagePattern.transactionAttempt,
] as const;

/**
 * The query side of settlement: `settlement.status` (a fold of the attempt stream, cached per stream revision) and the
 * lookups (`settlement.search-attempts`, `settlement.transaction-attempt`: the `attempt-lookups` read model, fresh
 * before each query). Reads only the event store and the read-model database, so the settlement-tracker serves it
 * (inside SettlementModule) and the distributed gateway serves it too, in its own process (docs/architecture.md "Two
 * compositions of the same modules"). Needs EVENT_STORE, READ_MODELS and CHAIN_REGISTRY from the composition root.
 */
@Module({
  controllers: [AttemptStatusHandler, AttemptLookupsHandler],
  providers: [AttemptStatusService, AttemptLookupsReadModel, AttemptLookupsService],
  exports: [AttemptStatusService],
})
export class SettlementQueriesModule {}
