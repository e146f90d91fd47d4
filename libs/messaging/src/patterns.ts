/**
 * Message patterns and topics: the only way feature modules talk (ARCHITECTURE.md "Messages").
 * The same names serve the in-process transport and Kafka.
 */
export const MessagePattern = {
  /** gateway → quoting: create an intent session (request/reply). */
  quote: 'quoting.quote',
  /** gateway → execution: prepare an attempt (request/reply). */
  prepare: 'execution.prepare',
  /** gateway → settlement: record evidence (request/reply). */
  submit: 'settlement.submit',
  /** gateway → settlement: read an attempt snapshot (request/reply). */
  status: 'settlement.status',
} as const;
export type MessagePatternName = (typeof MessagePattern)[keyof typeof MessagePattern];

export const Topic = {
  /** Attempt lifecycle events, keyed by attemptId (per-attempt order). */
  attemptLifecycle: 'attempt.lifecycle',
} as const;
