export * from './source-gas-figures';
export * from './source-gas-report';
export * from './with-budget';
