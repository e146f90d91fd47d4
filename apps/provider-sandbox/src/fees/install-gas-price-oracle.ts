import { numberToHex, pad, type Hex } from 'viem';
import { GasPriceOracleArtifact, type AnvilClient } from '@svc/testing';
import { type L1DataFeeModel } from './sandbox-fee-models';

/**
 * Puts the sandbox GasPriceOracle at the OP-stack predeploy address (anvil_setCode with the runtime code an
 * eth_call of its creation code returns) and writes its inputs into the storage slots its source names.
 */
export async function installGasPriceOracle(client: AnvilClient, model: L1DataFeeModel): Promise<void> {
  const { data: runtime } = await client.call({ data: GasPriceOracleArtifact.bytecode });
  if (!runtime) throw new Error('GasPriceOracle: its creation code returned no runtime code');
  await client.setCode({ address: model.oracle, bytecode: runtime });
  // Slot 0 packs isEcotone (byte 0) and isFjord (byte 1): Ecotone on, Fjord off.
  const slots: [number, Hex][] = [
    [0, pad('0x01')],
    [1, pad(numberToHex(model.l1BaseFee))],
    [2, pad(numberToHex(model.blobBaseFee))],
    [3, pad(numberToHex(model.baseFeeScalar))],
    [4, pad(numberToHex(model.blobBaseFeeScalar))],
  ];
  for (const [slot, value] of slots) {
    await client.setStorageAt({ address: model.oracle, index: slot, value });
  }
}
