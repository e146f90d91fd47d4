import { type AttemptStatus } from '../enums/attempt-status';
import { type API_VERSION } from '../errors/error-response';
import { type PerChainStatus } from './per-chain-status.types';
import { type SettledOutput } from './settled-output.types';

/**
 * spec: Attempt snapshot: the body of GET status and of the submitted response, and the base of every
 * webhook payload. `settled` means the target token is in the recipient wallet.
 */
export interface AttemptSnapshot {
  apiVersion: typeof API_VERSION;
  attemptId: string;
  intentSessionId: string;
  partnerId: string;
  status: AttemptStatus;
  currentStatus: AttemptStatus;
  walletAddress: string;
  recipient: string;
  /** Epoch ms. null until evidence was first reported: a prepared attempt has not been submitted. */
  submittedAt: number | null;
  perChainStatus: PerChainStatus[];
  settledOutputs: SettledOutput[];
}

/** spec: StatusResponse (200 of GET /attempts/{attemptId}/status). */
export type StatusResponse = AttemptSnapshot;

/** 200 of POST /attempts/{attemptId}/submitted: the snapshot after recording the evidence. */
export type SubmittedResponse = AttemptSnapshot;
