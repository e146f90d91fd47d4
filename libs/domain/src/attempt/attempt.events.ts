import { type AttemptStatus, type ChainAction, type WalletAuthorizationTypedData } from '@svc/contract';

/** One slice the attempt executes, with what the tracker needs to follow it to settlement. */
export interface AttemptSlice {
  sliceId: string;
  sourceIndex: number;
  sourceChainId: number;
  /** No-op slices deliver by a plain transfer (or are already in place); they have no provider. */
  noop: boolean;
  provider: string | null;
  providerRequestId: string | null;
  trackingContext: Record<string, unknown> | null;
  expectedOutputRaw: string;
  minimumOutputRaw: string;
}

export interface AttemptLeg {
  legIndex: number;
  targetId: string;
  provider: string;
  target: { chainId: number; address: string; symbol: string; decimals: number };
  slices: AttemptSlice[];
}

/** Everything the snapshot, the settlement tracker and an audit need, recorded when the attempt is created. */
export interface AttemptPreparedData {
  attemptId: string;
  intentSessionId: string;
  partnerId: string;
  idempotencyKey: string | null;
  wallet: string;
  recipient: string;
  preparedAt: number;
  /** Signable window (30 s): epoch ms. */
  expiresAt: number;
  /** Initial evidence must arrive before this: epoch ms. */
  evidenceDeadlineAt: number;
  chainActions: ChainAction[];
  walletAuthorization: WalletAuthorizationTypedData;
  legs: AttemptLeg[];
  walletContext: {
    connectorName?: string;
    connectorId?: string;
    walletCapabilities?: Record<string, unknown>;
  } | null;
}

/** Events of `attempt-<attemptId>`; the evidence and settlement events arrive with the settlement feature. */
export type AttemptEvent = { type: 'AttemptPrepared'; data: AttemptPreparedData };

export type AttemptState = { status: 'none' } | { status: AttemptStatus; prepared: AttemptPreparedData };
