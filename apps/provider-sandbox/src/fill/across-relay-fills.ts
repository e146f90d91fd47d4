import { type Address, encodeFunctionData, type Hex, pad } from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type PlannedTransfer } from '../scenarios/settlement-plan';

/** The relayer's fill of one deposit: what the filler pays to whom (`delivery`), for which deposit (`transfer`). */
export interface AcrossRelayFill {
  transfer: AcrossTransfer;
  delivery: PlannedTransfer;
}

const b32 = (address: Address): Hex => pad(address, { size: 32 });

/**
 * The `fillRelay(relayData, repaymentChainId, repaymentAddress)` call of one deposit, as the relayer sends it
 * (across-protocol/relayer src/relayer/Relayer.ts `fillRelay`, repayment on the destination chain to itself). The
 * relay data is the deposit's, with what the sandbox plans to deliver as recipient, output token and amount (a
 * short, zero or wrong-token scenario then shows in the pool's record as the chain does).
 */
export function fillRelayCalldata(fill: AcrossRelayFill, relayer: Address): Hex {
  const { transfer, delivery } = fill;
  return encodeFunctionData({
    abi: AcrossSpokePoolArtifact.abi,
    functionName: 'fillRelay',
    args: [
      {
        depositor: b32(transfer.depositor),
        recipient: b32(delivery.to),
        exclusiveRelayer: b32(transfer.exclusiveRelayer),
        inputToken: b32(transfer.eventInputToken),
        outputToken: b32(delivery.token),
        inputAmount: transfer.inputAmount,
        outputAmount: delivery.amount,
        originChainId: BigInt(transfer.sourceChainId),
        depositId: BigInt(transfer.depositId),
        fillDeadline: transfer.fillDeadline,
        exclusivityDeadline: transfer.exclusivityDeadline,
        message: transfer.message,
      },
      BigInt(delivery.chainId),
      b32(relayer),
    ],
  });
}
