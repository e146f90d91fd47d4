export * from './tracking-traits';
export * from './tracking.state';
export * from './plan-tracking';
export * from './schedule-after';
export * from './interpret-provider-answer';
export * from './interpret-fill';
export * from './transaction-claim';
