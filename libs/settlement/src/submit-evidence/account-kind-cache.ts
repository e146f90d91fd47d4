import { Inject, Injectable } from '@nestjs/common';
import { type AccountKind, CHAIN_REGISTRY, type ChainRegistry, readAccountKind } from '@svc/chains';
import { type Address } from 'viem';

/**
 * How long an answer is reused. An EOA or EIP-7702 answer can change (a delegation set or cleared), but only
 * between two kinds `submitted` accepts alike; contract code, once deployed, practically stays.
 */
export const ACCOUNT_KIND_TTL_MS: Record<AccountKind['kind'], number> = {
  eoa: 5 * 60_000,
  eip7702: 5 * 60_000,
  contract: 60 * 60_000,
};

/** Bounds memory: past this many wallets the oldest answer is dropped first. */
const MAX_ENTRIES = 10_000;

/**
 * What sits at a wallet, per (chainId, wallet), cached in this process so that repeated reports for one wallet
 * make no RPC call in the request path. Failed reads are not cached: they throw, as readAccountKind does.
 */
@Injectable()
export class AccountKindCache {
  private readonly entries = new Map<string, { kind: AccountKind; until: number }>();

  constructor(@Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry) {}

  async read(chainId: number, wallet: Address, now: number): Promise<AccountKind> {
    const key = `${chainId}:${wallet.toLowerCase()}`;
    const cached = this.entries.get(key);
    if (cached !== undefined && now < cached.until) return cached.kind;
    const kind = await readAccountKind(this.chains.client(chainId), { address: wallet });
    this.entries.delete(key);
    this.entries.set(key, { kind, until: now + ACCOUNT_KIND_TTL_MS[kind.kind] });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return kind;
  }
}
