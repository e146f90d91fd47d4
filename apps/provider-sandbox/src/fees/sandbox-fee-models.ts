import { type Address } from 'viem';

/** Wei per gwei. */
const GWEI = 1_000_000_000n;

/** An OP-stack L1 data fee's inputs, as the GasPriceOracle predeploy reports them (Ecotone formula). */
export interface L1DataFeeModel {
  oracle: Address;
  vault: Address;
  formula: 'ecotone';
  l1BaseFee: bigint;
  blobBaseFee: bigint;
  baseFeeScalar: bigint;
  blobBaseFeeScalar: bigint;
}

/**
 * A sandbox chain's fee market: the base fee walks within `[min, max]` from `start` (seeded, at most one EIP-1559
 * step of 12.5% a block), and `tip` is the priority fee a realistic wallet adds.
 */
export interface SandboxFeeModel {
  chainId: number;
  baseFee: { min: bigint; max: bigint; start: bigint };
  tip: bigint;
  l1DataFee: L1DataFeeModel | null;
}

export const GAS_PRICE_ORACLE: Address = '0x420000000000000000000000000000000000000F';
export const L1_FEE_VAULT: Address = '0x420000000000000000000000000000000000001A';

/**
 * Figures (docs/sandbox.md "Fees" gives the sources). The chain's RPC answers eth_maxPriorityFeePerGas with `tip`
 * (fee-rpc-proxy.ts), and wallets (viem's estimateFeesPerGas) add what it says.
 * - Ethereum: 2025 base fees sat around 2 to 5 gwei after Dencun, with spikes into the tens (Etherscan's gas
 *   tracker; early-2024 averages were around 50 gwei); tip 1 gwei, the wallets' usual default.
 * - Base: base fee hundredths to thousandths of a gwei (Base docs, "Network Fees"; Jovian's minimum base fee);
 *   tip 0.001 gwei, what OP-stack nodes suggest at their floor; L1 data fee inputs as Base set them at Ecotone
 *   (baseFeeScalar 2269, blobBaseFeeScalar 1055778), with an L1 base
 *   fee of 4 gwei (the Ethereum band above) and a blob base fee of 0.001 gwei.
 * - Arbitrum: the 0.01 gwei floor most of the time (Arbitrum docs, "Gas and fees": minimum base fee 0.01 gwei); tip
 *   0, as Arbitrum's sequencer ignores priority fees (first come, first served).
 */
export const SANDBOX_FEE_MODELS: readonly SandboxFeeModel[] = [
  { chainId: 1, baseFee: { min: 2n * GWEI, max: 30n * GWEI, start: 4n * GWEI }, tip: GWEI, l1DataFee: null },
  {
    chainId: 8453,
    baseFee: { min: 2_000_000n, max: 50_000_000n, start: 5_000_000n },
    tip: 1_000_000n,
    l1DataFee: {
      oracle: GAS_PRICE_ORACLE,
      vault: L1_FEE_VAULT,
      formula: 'ecotone',
      l1BaseFee: 4n * GWEI,
      blobBaseFee: 1_000_000n,
      baseFeeScalar: 2269n,
      blobBaseFeeScalar: 1_055_778n,
    },
  },
  {
    chainId: 42161,
    baseFee: { min: 10_000_000n, max: 50_000_000n, start: 14_000_000n },
    tip: 0n,
    l1DataFee: null,
  },
];

export function sandboxFeeModel(chainId: number): SandboxFeeModel | undefined {
  return SANDBOX_FEE_MODELS.find((m) => m.chainId === chainId);
}
