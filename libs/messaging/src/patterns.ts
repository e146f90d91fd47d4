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
  /** gateway → settlement: a partner's attempts by wallet / recipient, status, time (request/reply, read-only). */
  searchAttempts: 'settlement.search-attempts',
  /** gateway → settlement: the attempt a transaction hash belongs to (request/reply, read-only). */
  transactionAttempt: 'settlement.transaction-attempt',
  /** gateway → webhook dispatcher side: a page of the partner's webhook events with their tries (read-only). */
  webhookEvents: 'webhooks.events',
  /** gateway → webhook dispatcher side: send one webhook event again, or try it now (request/reply). */
  webhookRedeliver: 'webhooks.redeliver',
  /** gateway → webhook dispatcher side: send again every ended webhook event in a time range (request/reply). */
  webhookRecover: 'webhooks.recover',
} as const;
export type MessagePatternName = (typeof MessagePattern)[keyof typeof MessagePattern];

export const Topic = {
  /** Attempt lifecycle events, keyed by attemptId (per-attempt order). */
  attemptLifecycle: 'attempt.lifecycle',
} as const;
