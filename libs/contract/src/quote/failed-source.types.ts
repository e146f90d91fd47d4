import { type FailedSourceReasonCode } from '../enums/failed-source-reason-code';
import { type ProviderName } from '../enums/provider-name';

/** spec: FailedSource. Quote-level failures are reported here, never as HTTP errors. */
export interface FailedSource {
  outputTargetId: string;
  provider: ProviderName | null;
  symbol: string;
  address: string;
  chainId: number;
  reasonCode: FailedSourceReasonCode;
  reason: string;
  inputTokenIndex?: number | null;
  amount?: string | null;
  logoUrl?: string;
}
