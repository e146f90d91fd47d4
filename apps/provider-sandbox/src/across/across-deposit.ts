import { getAddress, zeroAddress } from 'viem';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { scenarioFor } from '../scenarios/sandbox-scenarios';
import { settlementPlan } from '../scenarios/settlement-plan';
import { type DepositLog } from '../watch/deposit-watcher';
import { appFeeOfMessage } from './across-fee-message';
import { ACROSS_REFUND_AFTER_EXPIRY_SECONDS } from './across-refund-timing';

type AcrossLog = Extract<DepositLog, { eventName: 'V3FundsDeposited' }>;

/**
 * A spoke-pool deposit as an Across transfer: the event itself says what to deliver (`outputAmount` of
 * `outputToken` to `recipient`). A native deposit names WETH as input; the transaction's value tells it apart.
 * The quote it executes, matched on the event's fields, adds what the event lacks: the minimum output and the
 * refund address (without a match: the deposit's output and no refund address).
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
  const inputToken = native ? zeroAddress : eventInputToken;
  const recipient = getAddress(args.recipient);
  const destinationChainId = Number(args.destinationChainId);
  const outputToken = getAddress(args.outputToken);
  // With an app fee the event's outputAmount is the bridge leg, the fee included; the recipient is owed the rest.
  const appFee = appFeeOfMessage(args.message, outputToken);
  const feeAmount = appFee !== null && appFee.amount <= args.outputAmount ? appFee.amount : 0n;
  const owed = args.outputAmount - feeAmount;
  const quoted = context.quotes.findAcross({
    originChainId: chainId,
    destinationChainId,
    depositor: args.depositor,
    recipient,
    inputToken,
    outputToken,
    inputAmount: args.inputAmount,
    outputAmount: owed,
  });
  const base = {
    id: `across:${chainId}:${log.transactionHash}:${log.logIndex}`,
    provider: 'across' as const,
    status: 'pending' as const,
    sourceChainId: chainId,
    sourceTxHash: log.transactionHash,
    sourceLogIndex: log.logIndex,
    sourceBlockNumber: log.blockNumber,
    depositor: getAddress(args.depositor),
    recipient,
    inputToken,
    eventInputToken,
    inputAmount: args.inputAmount,
    destinationChainId,
    outputToken,
    outputAmount: owed,
    minimumOutput: quoted?.quote.minOut ?? owed,
    scenario: scenarioFor('across', args.inputAmount),
    depositId: args.depositId,
    quoteTimestamp: args.quoteTimestamp,
    fillDeadline: args.fillDeadline,
    exclusivityDeadline: args.exclusivityDeadline,
    exclusiveRelayer: getAddress(args.exclusiveRelayer),
    message: args.message,
    refundAddress: quoted?.refundAddress,
    appFeeAmount: feeAmount,
    createdAt: now,
    updatedAt: now,
  };
  const plan = settlementPlan(context, {
    ...base,
    refund: context.faults.get('across')?.refund === true,
    // across-protocol/frontend api/_dexes/utils.ts getAcrossFallbackRecipient: refundAddress ?? depositor (an EVM
    // origin). It applies without refundOnOrigin; the sandbox plays it on every route (docs/sandbox.md, 909).
    bridged: {
      token: eventInputToken,
      fallbackRecipient: base.refundAddress ?? base.depositor,
      outputAmount: args.outputAmount,
    },
    appFee: appFee !== null && feeAmount > 0n ? { to: appFee.to, amount: feeAmount } : undefined,
    lateRefund: { chainId, at: args.fillDeadline + ACROSS_REFUND_AFTER_EXPIRY_SECONDS },
    refundToken: eventInputToken,
  });
  return { ...base, plan };
}
