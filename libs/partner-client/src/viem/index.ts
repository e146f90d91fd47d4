/**
 * `@intent-service/partner-client/viem`: the wallet's part of an attempt with viem (an optional peer dependency;
 * the main entry never loads it).
 */
export {
  atomicIn,
  ChainActionRevertedError,
  executePrepared,
  supportsAtomicBatch,
  type ExecutePreparedOptions,
  type ExecutePreparedResult,
  type ExecuteStep,
} from './execute-prepared';
