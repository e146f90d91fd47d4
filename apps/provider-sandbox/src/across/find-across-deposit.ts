import { RequestFieldError } from '../http/request-field-error';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { DepositNotFoundError } from './deposit-not-found-error';

/**
 * The deposit named by `depositTxnRef` (or its deprecated alias `depositTxHash`), or by
 * `originChainId` + `depositId`, as the indexer accepts them.
 */
export function findAcrossDeposit(context: SandboxContext, query: URLSearchParams): AcrossTransfer {
  const txRef = query.get('depositTxnRef') ?? query.get('depositTxHash');
  const originChainId = query.get('originChainId');
  const depositId = query.get('depositId');
  let transfer: AcrossTransfer | undefined;
  if (txRef) {
    transfer = context.transfers.acrossByDepositTx(txRef);
  } else if (originChainId && depositId && /^\d+$/.test(originChainId) && /^\d+$/.test(depositId)) {
    transfer = context.transfers.acrossByDepositId(Number(originChainId), Number(depositId));
  } else {
    throw new RequestFieldError(
      'depositTxnRef',
      'missing',
      'depositTxnRef or originChainId and depositId is required',
    );
  }
  if (!transfer) throw new DepositNotFoundError();
  return transfer;
}
