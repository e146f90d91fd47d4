import { getAddress } from 'viem';
import { type MayanTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { scenarioFor } from '../scenarios/sandbox-scenarios';
import { settlementPlan } from '../scenarios/settlement-plan';
import { bytes32ToAddress } from '../tokens/bytes32-to-address';
import { type DepositLog } from '../watch/deposit-watcher';
import { chainIdByWormholeId } from './mayan-chains';

type MayanLog = Extract<DepositLog, { eventName: 'OrderCreated' }>;

const SWIFT_DECIMALS = 8;

/**
 * A Swift order (V1 or V2) as a Mayan transfer. The order carries only a minimum, so the amount delivered is the
 * expected output of the quote its `random` names (quote-book.ts `claimMayan`); an order that names none, or not
 * the quoted terms, gets its minimum, scaled back from Swift's 8 decimals: what an auction without the quote's
 * guarantee owes. An order whose deadline has passed when it is indexed is never filled: it ends cancelled and
 * refunded, as a Swift order no driver fulfils in time. Orders to unknown chains or tokens are skipped.
 */
export function mayanTransferFromLog(
  context: SandboxContext,
  chainId: number,
  log: MayanLog,
): MayanTransfer | undefined {
  const { args } = log;
  const destinationChainId = chainIdByWormholeId(args.destChainId);
  const outputToken = bytes32ToAddress(args.tokenOut);
  const tokenOut =
    destinationChainId === undefined ? undefined : context.tokens.find(destinationChainId, outputToken);
  if (destinationChainId === undefined || !tokenOut) return undefined;
  const recipient = bytes32ToAddress(args.destAddr);
  const inputToken = getAddress(args.tokenIn);
  const matched = context.quotes.claimMayan({
    random: args.random,
    originChainId: chainId,
    destinationChainId,
    tokenIn: inputToken,
    amountIn: args.amountIn,
    tokenOut: outputToken,
    destAddr: recipient,
  });
  const scale = 10n ** BigInt(Math.max(0, tokenOut.decimals - SWIFT_DECIMALS));
  const now = context.now();
  const expired = Number(args.deadline) * 1000 <= now;
  const orderMinimum = args.minAmountOut * scale;
  const base = {
    id: `mayan:${chainId}:${log.transactionHash}:${log.logIndex}`,
    provider: 'mayan' as const,
    status: 'pending' as const,
    sourceChainId: chainId,
    sourceTxHash: log.transactionHash,
    sourceLogIndex: log.logIndex,
    sourceBlockNumber: log.blockNumber,
    depositor: bytes32ToAddress(args.trader),
    trader: bytes32ToAddress(args.trader),
    recipient,
    inputToken,
    inputAmount: args.amountIn,
    destinationChainId,
    outputToken,
    outputAmount: matched?.quote.expectedOut ?? orderMinimum,
    minimumOutput: matched?.quote.minOut ?? orderMinimum,
    scenario: expired ? ('cancel' as const) : scenarioFor('mayan', args.amountIn),
    orderKey: args.key,
    minAmountOut: args.minAmountOut,
    deadline: args.deadline,
    quoteId: matched?.quoteId,
    createdAt: now,
    updatedAt: now,
  };
  const plan = settlementPlan(context, { ...base, refund: context.faults.get('mayan')?.refund === true });
  return { ...base, plan };
}
