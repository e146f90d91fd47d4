import { type IntentQuotedData } from './intent-session.events';

type Command<Type extends string, Data> = { type: Type; data: Data };

/** The quote use case routed a request: record it (a replay of the same session records nothing). */
export type RecordQuote = Command<'RecordQuote', { quote: IntentQuotedData }>;

/**
 * Prepare claims the session for one attempt. `now` is when the request was received: the quote's expiry is judged
 * against it.
 */
export type ClaimForAttempt = Command<
  'ClaimForAttempt',
  { partnerId: string; attemptId: string; idempotencyKey: string | null; now: number }
>;

export type IntentSessionCommand = RecordQuote | ClaimForAttempt;
