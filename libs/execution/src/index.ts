export * from './execution.module';
export * from './execution.options';
export * from './chain-actions';
export * from './source-gas';
