import { type Hex } from 'viem';

/** A filler or refund transaction was mined but reverted. */
export class FillRevertedError extends Error {
  override readonly name = 'FillRevertedError';
  constructor(readonly txHash: Hex) {
    super(`transaction ${txHash} reverted`);
  }
}
