import { Module } from '@nestjs/common';
import { SettlementQueriesModule } from './settlement-queries.module';
import { AccountKindCache } from './submit-evidence/account-kind-cache';
import { SubmitEvidenceHandler } from './submit-evidence/submit-evidence.handler';
import { SubmitEvidenceService } from './submit-evidence/submit-evidence.service';
import { SettlementTracker } from './tracker/settlement-tracker';

/**
 * Settlement: evidence (`settlement.submit`), the tracker, and the query side (SettlementQueriesModule, which the
 * distributed gateway also serves on its own). Needs EVENT_STORE, READ_MODELS, CHAIN_REGISTRY, PROVIDER_ADAPTERS,
 * CLOCK and SETTLEMENT_OPTIONS from the composition root.
 */
@Module({
  imports: [SettlementQueriesModule],
  controllers: [SubmitEvidenceHandler],
  providers: [SubmitEvidenceService, AccountKindCache, SettlementTracker],
})
export class SettlementModule {}
