import { getAddress, zeroAddress, type Hex } from 'viem';
import { type RelayTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { scenarioFor } from '../scenarios/sandbox-scenarios';
import { settlementPlan } from '../scenarios/settlement-plan';
import { type DepositLog } from '../watch/deposit-watcher';

type RelayLog = Extract<DepositLog, { eventName: 'RelayErc20Deposit' | 'RelayNativeDeposit' }>;

/**
 * A depository deposit as a Relay transfer: the request id names the quote, which fixes destination,
 * recipient and the amount to deliver. A deposit short of the quote, or in another token, is refunded, as
 * Relay does (DEPOSITED_AMOUNT_TOO_LOW_TO_FILL), whatever scenario its amount names. Deposits with an unknown
 * request id are not Relay's to fill.
 */
export function relayTransferFromLog(
  context: SandboxContext,
  chainId: number,
  log: RelayLog,
): RelayTransfer | undefined {
  const requestId: Hex = log.args.id;
  const record = context.quotes.relayQuote(requestId);
  if (!record) return undefined;
  const { quote } = record;
  const token = log.eventName === 'RelayErc20Deposit' ? getAddress(log.args.token) : zeroAddress;
  const short =
    chainId !== quote.tokenIn.chainId ||
    token.toLowerCase() !== quote.tokenIn.address.toLowerCase() ||
    log.args.amount < quote.amountIn;
  const now = context.now();
  const failReason = short ? 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' : undefined;
  const base = {
    id: `relay:${chainId}:${log.transactionHash}:${log.logIndex}`,
    provider: 'relay' as const,
    requestId,
    status: 'pending' as const,
    sourceChainId: chainId,
    sourceTxHash: log.transactionHash,
    sourceLogIndex: log.logIndex,
    sourceBlockNumber: log.blockNumber,
    depositor: getAddress(log.args.from),
    recipient: record.recipient,
    inputToken: token,
    inputAmount: log.args.amount,
    destinationChainId: quote.tokenOut.chainId,
    outputToken: getAddress(quote.tokenOut.address),
    outputAmount: quote.expectedOut,
    minimumOutput: quote.minOut,
    scenario: short ? ('normal' as const) : scenarioFor('relay', log.args.amount),
    ...(failReason ? { failReason } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const refund = short || record.forceRefund || context.faults.get('relay')?.refund === true;
  return { ...base, plan: settlementPlan(context, { ...base, refund, failReason }) };
}
