import { type Hex } from 'viem';

/** A fill meant to revert (the reverted-fill scenario) was mined successfully: something moved that should not. */
export class FillSucceededError extends Error {
  override readonly name = 'FillSucceededError';
  constructor(readonly txHash: Hex) {
    super(`transaction ${txHash} was meant to revert but succeeded`);
  }
}
