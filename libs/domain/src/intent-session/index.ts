export * from './intent-session.events';
export * from './intent-session.state';
export * from './intent-session.commands';
export * from './intent-session-refused.error';
export { decideIntentSession, intentSessionDecider, intentSessionStreamId } from './intent-session.decider';
export * from './replayed-quote-response';
