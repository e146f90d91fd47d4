import { type AttemptStatus } from '../enums/attempt-status';
import { type API_VERSION } from '../errors/error-response';
import { type ChainAction } from './chain-action.types';
import { type WalletAuthorizationTypedData } from './wallet-authorization.types';

/** spec: PrepareResponse (200 of POST /intents/{intentSessionId}/prepare). */
export interface PrepareResponse {
  apiVersion: typeof API_VERSION;
  attemptId: string;
  intentSessionId: string;
  /** `prepared` on the first call; a replay returns the current status, and only `prepared` may execute. */
  status: AttemptStatus;
  /** ISO 8601: end of the signable window (30 s). */
  expiresAt: string;
  /** ISO 8601: initial evidence must be reported before this. */
  evidenceDeadlineAt?: string;
  chainActions: ChainAction[];
  walletAuthorization?: WalletAuthorizationTypedData | null;
}
