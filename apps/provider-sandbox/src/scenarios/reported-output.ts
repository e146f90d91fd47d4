import { type Address } from 'viem';
import { type TransferRecord } from '../ledger/transfer-record';

/**
 * The output the status endpoints report once a transfer is filled: what its plan claims (a scenario may claim
 * other than what moved), else what the deposit promised.
 */
export function reportedOutput(transfer: TransferRecord): { token: Address; amount: bigint } {
  return transfer.plan.kind === 'fill'
    ? transfer.plan.reported
    : { token: transfer.outputToken, amount: transfer.outputAmount };
}
