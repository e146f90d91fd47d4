import { Module } from '@nestjs/common';
import { AttemptStatusHandler } from './attempt-status/attempt-status.handler';
import { AttemptStatusService } from './attempt-status/attempt-status.service';
import { AccountKindCache } from './submit-evidence/account-kind-cache';
import { SubmitEvidenceHandler } from './submit-evidence/submit-evidence.handler';
import { SubmitEvidenceService } from './submit-evidence/submit-evidence.service';
import { SettlementTracker } from './tracker/settlement-tracker';

/** Needs EVENT_STORE, CHAIN_REGISTRY, PROVIDER_ADAPTERS, CLOCK and SETTLEMENT_OPTIONS from the composition root. */
@Module({
  controllers: [SubmitEvidenceHandler, AttemptStatusHandler],
  providers: [SubmitEvidenceService, AttemptStatusService, AccountKindCache, SettlementTracker],
})
export class SettlementModule {}
