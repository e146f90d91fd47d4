export * from './decider/decider-spec';
export * from './http/raw-request';
export * from './http/signed-request';
