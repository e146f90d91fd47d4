import { type Address, type Hex } from 'viem';

/** Where one provider leg stands, in our terms; providerStatus keeps the provider's own word for logs. */
export type LegProgress =
  | {
      state: 'pending';
      providerStatus: string;
      /**
       * The deposit's own fill deadline, epoch ms, when the provider's answer names it (mayan's explorer `deadline`,
       * the order's deadline64): after it the provider refunds instead of filling. Absent: not named.
       */
      fillDeadlineAt?: number | null;
    }
  | {
      state: 'filled';
      providerStatus: string;
      destinationTxHash: Hex | null;
      actualOutputRaw: bigint | null;
      /**
       * The fill arrived but its destination action (a swap into the target token) failed: the recipient (or the
       * refund address) got `token` instead of the target (across `actionsSucceeded: false`). Absent otherwise.
       */
      destinationActionFailed?: { token: Address | null } | null;
      /**
       * The deposit carried destination actions whose outcome the provider does not report (Across sets
       * `actionsSucceeded` only for `filled`, never for `slowFilled`: providers review N13). If the target token did
       * not reach the recipient, the fill is read for `token` (the bridged token) at the fallback recipient, as for a
       * failed action. Absent otherwise.
       */
      destinationActionUnreported?: { token: Address } | null;
    }
  | {
      state: 'refunded';
      providerStatus: string;
      refundTxHash: Hex | null;
      reason: string | null;
      /** The chain the refund was paid on, when the provider says (relay may refund on the destination). */
      refundChainId?: number | null;
      /**
       * The token the refund was paid in, when the provider says (relay `refundCurrencyData.currency.address`: "the
       * refund currency can vary by route"); the zero address for the native currency. Absent: not said.
       */
      refundToken?: Address | null;
    }
  | { state: 'failed'; providerStatus: string; reason: string | null };

export interface StatusFailure {
  reasonCode: 'provider_unavailable' | 'provider_timeout' | 'not_found';
  reason: string;
  httpStatus: number | null;
  /** The provider's `Retry-After` (a 429 or 503), in ms from the answer; absent when it sent none. */
  retryAfterMs?: number;
}

export type StatusResult = { ok: true; progress: LegProgress } | { ok: false; failure: StatusFailure };
