import { type Address, type Hash } from 'viem';
import { type L1DataFee } from './l1-data-fee';

export interface L1FeeCharge extends L1DataFee {
  chainId: number;
  txHash: Hash;
  from: Address;
  blockNumber: bigint;
}

/** The L1 data fees the sandbox charged, by transaction hash. */
export class L1FeeBook {
  private readonly charges = new Map<string, L1FeeCharge>();

  record(charge: L1FeeCharge): void {
    this.charges.set(charge.txHash.toLowerCase(), charge);
  }

  get(txHash: string): L1FeeCharge | undefined {
    return this.charges.get(txHash.toLowerCase());
  }
}
