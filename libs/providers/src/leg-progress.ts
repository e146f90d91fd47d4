import { type Hex } from 'viem';

/** Where one provider leg stands, in our terms; providerStatus keeps the provider's own word for logs. */
export type LegProgress =
  | { state: 'pending'; providerStatus: string }
  | { state: 'filled'; providerStatus: string; destinationTxHash: Hex | null; actualOutputRaw: bigint | null }
  | { state: 'refunded'; providerStatus: string; refundTxHash: Hex | null; reason: string | null }
  | { state: 'failed'; providerStatus: string; reason: string | null };

export interface StatusFailure {
  reasonCode: 'provider_unavailable' | 'provider_timeout' | 'not_found';
  reason: string;
  httpStatus: number | null;
}

export type StatusResult = { ok: true; progress: LegProgress } | { ok: false; failure: StatusFailure };
