import type { Hash } from 'viem';

/** The node has no receipt for the hash: the transaction is unknown, still pending, or was dropped. */
export class TransactionNotMinedError extends Error {
  override readonly name = 'TransactionNotMinedError' as const;

  constructor(
    readonly hash: Hash,
    readonly chainId: number | undefined,
  ) {
    super(`chain ${chainId ?? '?'}: transaction ${hash} is not mined`);
  }
}
