import {
  type BeginRequest,
  type CompleteRequest,
  type IdempotencyOutcome,
  type ReleaseRequest,
} from '@svc/domain';

/** What a run that holds a key records at its end. */
export type SettleRequest = CompleteRequest | ReleaseRequest;

/**
 * Where Idempotency-Key records are kept, keyed by partner and the key's sha256, each for the retention it was
 * opened with. Each command is decided by the idempotency decider (`@svc/domain`) on the key's record, atomically
 * against every other writer: of concurrent first begins exactly one runs.
 */
export interface IdempotencyStore {
  /** Records the acceptance when the key may run; the outcome is `beginOutcome`'s. */
  begin(partnerId: string, keyDigest: string, command: BeginRequest): Promise<IdempotencyOutcome>;
  /** Records the result only when the command's run still holds the key; otherwise nothing. */
  settle(partnerId: string, keyDigest: string, command: SettleRequest): Promise<void>;
}
