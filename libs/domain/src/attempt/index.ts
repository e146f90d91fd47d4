export * from './attempt.events';
export * from './attempt.state';
