import { getAddress, zeroAddress } from 'viem';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { type DepositLog } from '../watch/deposit-watcher';

type AcrossLog = Extract<DepositLog, { eventName: 'V3FundsDeposited' }>;

/**
 * A spoke-pool deposit as an Across transfer: the event itself says what to deliver (`outputAmount` of
 * `outputToken` to `recipient`). A native deposit names WETH as input; the transaction's value tells it apart.
 */
export async function acrossTransferFromLog(
  context: SandboxContext,
  chainId: number,
  log: AcrossLog,
): Promise<AcrossTransfer> {
  const { args } = log;
  const eventInputToken = getAddress(args.inputToken);
  let native = false;
  if (eventInputToken === context.tokens.weth(chainId)) {
    const tx = await context.clients.public(chainId).getTransaction({ hash: log.transactionHash });
    native = tx.value > 0n;
  }
  const now = context.now();
  return {
    id: `across:${chainId}:${log.transactionHash}:${log.logIndex}`,
    provider: 'across',
    status: 'pending',
    sourceChainId: chainId,
    sourceTxHash: log.transactionHash,
    sourceBlockNumber: log.blockNumber,
    depositor: getAddress(args.depositor),
    recipient: getAddress(args.recipient),
    inputToken: native ? zeroAddress : eventInputToken,
    eventInputToken,
    inputAmount: args.inputAmount,
    destinationChainId: Number(args.destinationChainId),
    outputToken: getAddress(args.outputToken),
    outputAmount: args.outputAmount,
    refund: context.faults.get('across')?.refund === true,
    depositId: args.depositId,
    quoteTimestamp: args.quoteTimestamp,
    fillDeadline: args.fillDeadline,
    exclusivityDeadline: args.exclusivityDeadline,
    exclusiveRelayer: getAddress(args.exclusiveRelayer),
    message: args.message,
    createdAt: now,
    updatedAt: now,
  };
}
