import { type SliceKind } from './allocation.types';

interface TokenRef {
  chainId: number;
  address: string;
  symbol: string | null;
}

/** Addresses compare case-insensitively: checksummed and lower-case spellings name the same token. */
export function sliceKind(source: TokenRef, target: TokenRef): SliceKind {
  if (source.chainId !== target.chainId) return 'route';
  return source.address.toLowerCase() === target.address.toLowerCase() ? 'noop' : 'same_chain_unsupported';
}

/** A missing symbol never matches: "same symbol" is only claimed when both sides say so. */
export function isSameSymbol(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
}

export function isSameSymbolRoute(source: TokenRef, target: TokenRef): boolean {
  return sliceKind(source, target) === 'route' && isSameSymbol(source.symbol, target.symbol);
}
