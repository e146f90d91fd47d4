export * from './intent-session.events';
export * from './intent-session.state';
