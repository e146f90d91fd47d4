import { type ProviderName } from '@svc/contract';

/** One provider's answer for one slice, as the evaluation needs it (raw amounts in target base units). */
export type SliceQuoteOutcome =
  | {
      ok: true;
      expectedOutputRaw: bigint;
      minimumOutputRaw: bigint;
      inputUsd: number | null;
      outputUsd: number | null;
      feeUsd: number | null;
      etaSeconds: number | null;
    }
  | { ok: false; reasonCode: string; reason: string };

export interface SliceQuote {
  sliceId: string;
  provider: ProviderName;
  outcome: SliceQuoteOutcome;
}
