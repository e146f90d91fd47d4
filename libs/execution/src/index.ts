export * from './execution.module';
export * from './execution.options';
export * from './authorization';
export * from './chain-actions';
