export * from './patterns';
export * from './envelopes';
export * from './message-bus.port';
export * from './nest-message-bus';
export * from './in-process/in-process-broker';
export * from './in-process/in-process.server';
export * from './in-process/in-process.client';
