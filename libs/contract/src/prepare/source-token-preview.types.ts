/** spec: SourceTokenPreview, shown in prepare's perLegPreview and in status legs. */
export interface SourceTokenPreview {
  chain: string;
  amount: string;
  symbol: string;
  address: string;
  rawAmount: string;
  logoUrl?: string;
  networkLogo?: string;
  usdValue?: string | null;
}
