/** spec: TargetToken. */
export interface TargetToken {
  address: string;
  chainId: number;
  symbol: string;
  decimals: number;
  logoUrl?: string;
  priceUSD?: string | null;
}

/** spec: Target, as echoed in responses; every field is resolved (ids and shares are never absent). */
export interface Target {
  id: string;
  chainId: number;
  address: string;
  allocationPercent: number;
  targetToken: TargetToken;
}
