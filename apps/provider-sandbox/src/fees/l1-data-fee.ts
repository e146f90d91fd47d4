import { hexToBytes, type Hex } from 'viem';
import { type L1DataFeeModel } from './sandbox-fee-models';

export interface L1DataFee {
  l1Fee: bigint;
  l1GasUsed: bigint;
  l1BaseFee: bigint;
  l1BlobBaseFee: bigint;
  l1BaseFeeScalar: bigint;
  l1BlobBaseFeeScalar: bigint;
}

/**
 * The Ecotone L1 data fee the OP node charges a transaction, on its signed RLP bytes (op-geth
 * `newL1CostFuncEcotone`: zero bytes 4 gas, others 16, no padding), in the GasPriceOracle's integer arithmetic:
 * l1GasUsed × (16 × baseFeeScalar × l1BaseFee + blobBaseFeeScalar × blobBaseFee) / (16 × 10^6).
 */
export function l1DataFee(signedTx: Hex, model: L1DataFeeModel): L1DataFee {
  let l1GasUsed = 0n;
  for (const byte of hexToBytes(signedTx)) l1GasUsed += byte === 0 ? 4n : 16n;
  const scaled = 16n * model.baseFeeScalar * model.l1BaseFee + model.blobBaseFeeScalar * model.blobBaseFee;
  return {
    l1Fee: (l1GasUsed * scaled) / 16_000_000n,
    l1GasUsed,
    l1BaseFee: model.l1BaseFee,
    l1BlobBaseFee: model.blobBaseFee,
    l1BaseFeeScalar: model.baseFeeScalar,
    l1BlobBaseFeeScalar: model.blobBaseFeeScalar,
  };
}
