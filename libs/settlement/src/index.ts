export * from './settlement.module';
export * from './settlement-queries.module';
export * from './settlement.options';
export * from './observe/observe-source-transaction';
export * from './observe/read-settled-amount';
export * from './tracker/settlement-tracker';
export { AttemptStatusService } from './attempt-status/attempt-status.service';
export { attemptLookupProjection } from './lookups/lookup-projection';
