import { type AmountBasis } from '../enums/amount-basis';

/** spec: settledOutputs items: what reached the recipient on one chain. */
export interface SettledOutput {
  chainId: number;
  symbol: string;
  /** Decimal string in display units. */
  amount: string;
  amountBasis: AmountBasis;
  txHash: string;
}
