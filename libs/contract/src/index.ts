export * from './errors/error-codes';
export * from './errors/error-response';
export * from './headers';
