import { type SourceGasTransactionKind } from '@svc/contract';

/**
 * The documented gas of a call the chain could not simulate (docs/source-economics.md "Per-call estimates"): a
 * node without eth_simulateV1, or a call that reverts when run as built (a wallet that does not hold the amount yet).
 * Each figure includes the 21 000 intrinsic gas of its own transaction and is rounded up from what these calls use on
 * mainnet: an ERC-20 approve from zero (about 46 000), an approve back to zero (about 29 000, net of the refund), an
 * ERC-20 transfer to a holder without a balance (about 51 000), a plain native transfer (21 000), and each
 * provider's deposit: Relay's transfer to its depository (about 60 000), Across's SpokePool deposit (about 110 000),
 * Mayan's Swift order (about 230 000).
 */
export const PER_CALL_GAS: Readonly<Record<Exclude<SourceGasTransactionKind, 'deposit'>, bigint>> = {
  approve: 50_000n,
  approve_reset: 30_000n,
  transfer: 55_000n,
  other: 150_000n,
};

export const PER_DEPOSIT_GAS: Readonly<Record<string, bigint>> = {
  relay: 65_000n,
  across: 120_000n,
  mayan: 250_000n,
};

export const NATIVE_TRANSFER_GAS = 21_000n;

export function perCallGas(kind: SourceGasTransactionKind, provider: string, data: string): bigint {
  if (kind === 'deposit') return PER_DEPOSIT_GAS[provider] ?? PER_CALL_GAS.other;
  if (kind === 'transfer' && data === '0x') return NATIVE_TRANSFER_GAS;
  return PER_CALL_GAS[kind];
}
