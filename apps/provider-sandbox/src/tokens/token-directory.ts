import { getAddress, zeroAddress, type Address } from 'viem';
import { type SandboxToken } from '../chains/start-sandbox-chains';
import { isExtraTokenSymbol } from '../chains/sandbox-deployment-plan';

const TOKEN_NAMES: Readonly<Record<string, string>> = {
  USDC: 'USD Coin',
  USDT: 'Tether USD',
  WETH: 'Wrapped Ether',
  ETH: 'Ether',
};

/** The sandbox tokens, looked up the ways the dialects need: by address, by symbol, native or not. */
export class TokenDirectory {
  constructor(readonly tokens: readonly SandboxToken[]) {}

  find(chainId: number, address: string): SandboxToken | undefined {
    const wanted = address.toLowerCase();
    return this.tokens.find((t) => t.chainId === chainId && t.address.toLowerCase() === wanted);
  }

  bySymbol(chainId: number, symbol: SandboxToken['symbol']): SandboxToken | undefined {
    return this.tokens.find((t) => t.chainId === chainId && t.symbol === symbol);
  }

  /** The chain's WETH: Across names it as the input token of a native deposit. */
  weth(chainId: number): Address {
    const weth = this.bySymbol(chainId, 'WETH');
    if (!weth) throw new Error(`chain ${chainId} has no sandbox WETH`);
    return getAddress(weth.address);
  }
}

export function isNative(address: string): boolean {
  return address.toLowerCase() === zeroAddress;
}

export function tokenName(symbol: string): string {
  if (isExtraTokenSymbol(symbol)) return `Bench Token ${symbol.slice('BENCH'.length)}`;
  return TOKEN_NAMES[symbol] ?? symbol;
}
