import { acrossTransferFromLog } from '../across/across-deposit';
import { type TransferRecord } from '../ledger/transfer-record';
import { mayanTransferFromLog } from '../mayan/mayan-order';
import { relayTransferFromLog } from '../relay/relay-deposit';
import { type SandboxContext } from '../sandbox-context';
import { type DepositLog } from './deposit-watcher';

/** Turns one poll's deposit events into transfers; events no provider can act on come back as skipped. */
export async function indexDepositLogs(
  context: SandboxContext,
  chainId: number,
  logs: readonly DepositLog[],
): Promise<{ transfers: TransferRecord[]; skipped: DepositLog[] }> {
  const transfers: TransferRecord[] = [];
  const skipped: DepositLog[] = [];
  for (const log of logs) {
    let transfer: TransferRecord | undefined;
    switch (log.eventName) {
      case 'RelayErc20Deposit':
      case 'RelayNativeDeposit':
        transfer = relayTransferFromLog(context, chainId, log);
        break;
      case 'V3FundsDeposited':
        transfer = await acrossTransferFromLog(context, chainId, log);
        break;
      case 'OrderCreated':
        transfer = mayanTransferFromLog(context, chainId, log);
        break;
    }
    if (transfer) transfers.push(transfer);
    else skipped.push(log);
  }
  return { transfers, skipped };
}
