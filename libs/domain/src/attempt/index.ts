export * from './attempt.events';
export * from './attempt-record';
export * from './attempt.state';
export * from './attempt.commands';
export * from './attempt-refused.error';
export * from './attempt-input.error';
export { decideAttempt } from './decide-attempt';
export { ATTEMPT_STREAM_PREFIX, attemptDecider, attemptIdOfStream, attemptStreamId } from './attempt.decider';
export {
  attemptDeadlines,
  type AttemptDeadlines,
  type AttemptWindows,
  providerDeadlineFloor,
} from './attempt-deadlines';
export {
  endsAttempt,
  LIFECYCLE_STATUS_OF,
  lifecycleStatusOf,
  WEBHOOK_EVENT_OF_STATUS,
  webhookEventOf,
} from './attempt-lifecycle';
export { attemptSnapshot } from './attempt-snapshot';
export type { ChainNames } from './status-leg';
export { DIRECT_PROVIDER, flattenSlices, type FlatSlice, slicePlan, type SlicePlan } from './attempt-slices';
export { minedAfterPrepare, SOURCE_TX_CLOCK_SKEW_MS } from './observe-source-transaction';
export { NO_FEES, sliceFees } from './slice-fees';
export { type FilledLeg, type LegFinality, legSourceTx } from './confirm-leg';
export {
  type ClaimContender,
  couldOwnSourceTransaction,
  mayClaimReported,
  WALLET_ATTEMPTS_SCANNED,
  walletAttemptOf,
  type WalletAttemptEvent,
  type WalletAttemptRegisteredData,
  walletAttemptsStreamId,
} from './wallet-attempts';
