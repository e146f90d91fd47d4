/**
 * Chains whose transactions also pay an L1 data fee, charged by the OP stack's GasPriceOracle predeploy on the
 * transaction's bytes (docs/source-economics.md "L1 data fees"): OP Mainnet, Base, Unichain, World Chain, Ink, Lisk,
 * Mode, Zora, Blast. Arbitrum folds its L1 component into gasUsed, so its eth_simulateV1 figure already holds it.
 */
export const OP_STACK_CHAIN_IDS: ReadonlySet<number> = new Set([
  10, 8453, 130, 480, 57073, 1135, 34443, 7777777, 81457,
]);

/** The GasPriceOracle predeploy of every OP-stack chain (optimism specs, predeploys.md). */
export const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F';

export const GET_L1_FEE_ABI = [
  {
    type: 'function',
    name: 'getL1Fee',
    stateMutability: 'view',
    inputs: [{ name: '_data', type: 'bytes' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;
