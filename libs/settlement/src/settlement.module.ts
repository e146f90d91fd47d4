import { Module } from '@nestjs/common';
import { AttemptStatusHandler } from './attempt-status/attempt-status.handler';
import { AttemptStatusService } from './attempt-status/attempt-status.service';
import { AttemptLookupsHandler } from './lookups/attempt-lookups.handler';
import { AttemptLookupsReadModel } from './lookups/attempt-lookups.read-model';
import { AttemptLookupsService } from './lookups/attempt-lookups.service';
import { AccountKindCache } from './submit-evidence/account-kind-cache';
import { SubmitEvidenceHandler } from './submit-evidence/submit-evidence.handler';
import { SubmitEvidenceService } from './submit-evidence/submit-evidence.service';
import { SettlementTracker } from './tracker/settlement-tracker';

/** Needs EVENT_STORE, CHAIN_REGISTRY, PROVIDER_ADAPTERS, CLOCK and SETTLEMENT_OPTIONS from the composition root. */
@Module({
  controllers: [SubmitEvidenceHandler, AttemptStatusHandler, AttemptLookupsHandler],
  providers: [
    SubmitEvidenceService,
    AttemptStatusService,
    AccountKindCache,
    SettlementTracker,
    AttemptLookupsReadModel,
    AttemptLookupsService,
  ],
})
export class SettlementModule {}
