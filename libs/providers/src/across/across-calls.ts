import { decodeApprove } from '../evm/decode-approve';
import { type ProviderCall } from '../provider-quote';
import {
  address,
  chainId,
  hexData,
  list,
  optionalBaseUnits,
  optionalGasLimit,
  record,
  type JsonRecord,
} from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';

/** `approvalTxns[]` (no value or gas; a USDT `approve(0)` comes first) then `swapTx`, all on the origin chain. */
export function acrossCalls(answer: JsonRecord, sourceChainId: number): ProviderCall[] {
  const approvals = list(answer.approvalTxns, 'approvalTxns').map((raw, i): ProviderCall => {
    const path = `approvalTxns[${i}]`;
    const item = record(raw, path);
    const to = address(item.to, `${path}.to`);
    const data = hexData(item.data, `${path}.data`);
    const approve = decodeApprove(data);
    if (approve === null) throw new MalformedResponseError(`${path}.data is not approve calldata`);
    return onOrigin(
      {
        chainId: chainId(item.chainId, `${path}.chainId`),
        to,
        data,
        value: 0n,
        gas: null,
        kind: 'approve',
        approval: { token: to, spender: approve.spender, amount: approve.amount },
      },
      path,
      sourceChainId,
    );
  });
  const swapTx = record(answer.swapTx, 'swapTx');
  const deposit = onOrigin(
    {
      chainId: chainId(swapTx.chainId, 'swapTx.chainId'),
      to: address(swapTx.to, 'swapTx.to'),
      data: hexData(swapTx.data, 'swapTx.data'),
      value: optionalBaseUnits(swapTx.value, 'swapTx.value') ?? 0n,
      // Present only when Across simulated the deposit (allowance and balance already sufficient:
      // across-protocol/frontend api/swap/approval/_service.ts getOriginTxGas), and then a bare estimateGas with no
      // headroom. We pass a positive one through, as Across's own toolkit hands it to sendTransaction
      // (across-protocol/toolkit packages/sdk/src/actions/executeSwapQuote.ts): it is Across's simulation of this
      // exact call, and without it a wallet estimates anyway. "0" (or less) is unset, never a zero limit
      // (toolkit 9c840105, "Zero-ish gas values are now treated as unset").
      gas: optionalGasLimit(swapTx.gas, 'swapTx.gas'),
      kind: 'deposit',
    },
    'swapTx',
    sourceChainId,
  );
  return [...approvals, deposit];
}

function onOrigin(call: ProviderCall, path: string, sourceChainId: number): ProviderCall {
  if (call.chainId !== sourceChainId)
    throw new MalformedResponseError(
      `${path} is on chain ${call.chainId}, not the origin chain ${sourceChainId}`,
    );
  return call;
}
