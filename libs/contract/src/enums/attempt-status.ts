/** spec: Enumerations / AttemptStatus. */
export const ATTEMPT_STATUSES = [
  'prepared',
  'wallet_submitted',
  'provider_pending',
  'settled',
  'failed',
  'expired',
] as const;

export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** spec: Attempt states. No transition leaves these; a replayed prepare must not execute again. */
export const TERMINAL_ATTEMPT_STATUSES = [
  'settled',
  'failed',
  'expired',
] as const satisfies readonly AttemptStatus[];

export type TerminalAttemptStatus = (typeof TERMINAL_ATTEMPT_STATUSES)[number];

export function isTerminalAttemptStatus(status: AttemptStatus): status is TerminalAttemptStatus {
  return (TERMINAL_ATTEMPT_STATUSES as readonly AttemptStatus[]).includes(status);
}
