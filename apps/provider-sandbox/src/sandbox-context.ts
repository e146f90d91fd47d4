import { type CctpBurnBook } from './cctp/cctp-burn-book';
import { type SandboxChains, type SandboxContracts } from './chains/start-sandbox-chains';
import { type FaultRegistry } from './faults/fault-registry';
import { type QuoteBook } from './ledger/quote-book';
import { type TransferBook } from './ledger/transfer-book';
import { computeQuote, type ComputedQuote, type QuoteRequest } from './pricing/compute-quote';
import { type PriceTable } from './pricing/price-table';
import { type ProviderEconomics } from './pricing/provider-economics';
import { UnsupportedChainError } from './pricing/quote-errors';
import { type SandboxProvider } from './pricing/sandbox-provider';
import { readInt } from './http/request-fields';
import { type ChainClients } from './rpc/chain-clients';
import { type TokenDirectory } from './tokens/token-directory';

/** Everything a dialect handler reads or records; one instance per running sandbox. */
export interface SandboxContext {
  chains: SandboxChains;
  clients: ChainClients;
  tokens: TokenDirectory;
  quotes: QuoteBook;
  transfers: TransferBook;
  /** CCTP burns of Across legs routed over CCTP (the `cctp` fault), and their mints. */
  cctpBurns: CctpBurnBook;
  faults: FaultRegistry;
  prices: PriceTable;
  economics: Readonly<Record<SandboxProvider, ProviderEconomics>>;
  now(): number;
}

export function quoteFor(context: SandboxContext, request: QuoteRequest): ComputedQuote {
  return computeQuote(request, {
    tokens: context.tokens.tokens,
    prices: context.prices,
    economics: context.economics[request.provider],
  });
}

export function contractsOn(context: SandboxContext, field: string, chainId: number): SandboxContracts {
  const contracts = context.chains.contracts.find((c) => c.chainId === chainId);
  if (!contracts) throw new UnsupportedChainError(field, chainId);
  return contracts;
}

/** A chain id field that must name a sandbox chain. */
export function readChainId(context: SandboxContext, source: Record<string, unknown>, field: string): number {
  const chainId = readInt(source, field);
  if (!context.clients.has(chainId)) throw new UnsupportedChainError(field, chainId);
  return chainId;
}
