/** The lifecycle events appended per attempt, each announced by one webhook. */
export const LIFECYCLE = [
  { type: 'AttemptWalletSubmitted', kind: 'wallet_submitted' },
  { type: 'AttemptProviderPending', kind: 'provider_pending' },
  { type: 'AttemptSettled', kind: 'settled' },
] as const;
