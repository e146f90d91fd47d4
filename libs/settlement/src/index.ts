export * from './settlement.module';
export * from './settlement-queries.module';
export * from './settlement.options';
export * from './observe/observe-source-transaction';
export * from './observe/read-settled-amount';
export * from './tracker/settlement-tracker';
export { AttemptStatusService } from './attempt-status/attempt-status.service';
export { attemptLookupProjection } from './lookups/lookup-projection';
// The tracker's own attribution of a leg's fill, read again by the audit (tools/audit/chain/check-deliveries.ts).
export { readLegFill, type LegFillFinding } from './tracker/read-fill';
export { legDeposit } from './tracker/leg-deposit';
export { sliceProvider } from './tracker/slice-provider';
