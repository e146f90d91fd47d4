import { formatUnits } from 'viem';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { type MayanTransfer } from '../ledger/transfer-record';
import { reportedOutput } from '../scenarios/reported-output';
import { requireExplorerKey } from './mayan-explorer-key';
import { mayanChainById } from './mayan-chains';
import { mayanClientStatus } from './mayan-client-status';
import { SwapNotFoundError } from './swap-not-found-error';

const SWIFT_DECIMALS = 8;

/**
 * Explorer `GET /swap/trx/{sourceTxHash}`: 404 until the watcher indexes the order; `toAmount` is the delivered
 * amount in human units. Chain fields are Wormhole ids as strings. With several orders in one transaction, the
 * transaction hash finds the first. An order hash is not looked up here: Mayan documents `/swap/trx/{orderHash}`
 * for gasless orders only (docs.mayan.finance /build/track-transactions), and its own driver finds an order by
 * `/swap/order-id/SWIFT_0x{key}` (mayanOrderHandler). Only with the sandbox's API key (mayan-explorer-key.ts).
 */
export function mayanSwapHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    requireExplorerKey(request);
    const hash = request.params.hash ?? '';
    const t = context.transfers
      .ofProvider('mayan')
      .filter((o) => o.sourceTxHash.toLowerCase() === hash.toLowerCase())
      .sort((a, b) => a.sourceLogIndex - b.sourceLogIndex)[0];
    if (!t) throw new SwapNotFoundError(hash);
    return Promise.resolve(jsonReply(200, swapBody(context, t)));
  };
}

/**
 * Explorer `GET /swap/order-id/SWIFT_0x{orderKey}`, the lookup Mayan's own driver uses for a Swift order
 * (mayan-finance/driver-sdk src/watchers/mayan-explorer.ts `fetchFromExplorerByHash`): the order with this key, in
 * the same shape as `/swap/trx`. Only with the sandbox's API key.
 */
export function mayanOrderHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    requireExplorerKey(request);
    const orderId = request.params.orderId ?? '';
    const key = orderId.startsWith('SWIFT_') ? orderId.slice('SWIFT_'.length).toLowerCase() : null;
    const t = context.transfers.ofProvider('mayan').find((o) => o.orderKey.toLowerCase() === key);
    if (!t) throw new SwapNotFoundError(orderId);
    return Promise.resolve(jsonReply(200, swapBody(context, t)));
  };
}

function swapBody(context: SandboxContext, t: MayanTransfer) {
  const tokenIn = context.tokens.find(t.sourceChainId, t.inputToken)!;
  const tokenOut = context.tokens.find(t.destinationChainId, t.outputToken)!;
  const sourceChain = String(mayanChainById(t.sourceChainId)?.wormholeId);
  const destChain = String(mayanChainById(t.destinationChainId)?.wormholeId);
  const { clientStatus, status } = mayanClientStatus(t.status, t.scenario === 'cancel');
  const minScale = 10n ** BigInt(Math.max(0, tokenOut.decimals - SWIFT_DECIMALS));
  const iso = (ms: number) => new Date(ms).toISOString();
  const done = t.status === 'filled' || t.status === 'refunded';
  const refunded = t.status === 'refunded';
  return {
    id: t.orderKey,
    orderHash: t.orderKey,
    service: 'SWIFT_SWAP',
    trader: t.trader,
    sourceChain,
    sourceTxHash: t.sourceTxHash,
    sourceTxBlockNo: Number(t.sourceBlockNumber),
    destChain,
    destAddress: t.recipient,
    swapChain: destChain,
    refundChain: sourceChain,
    fromTokenAddress: t.inputToken,
    fromTokenChain: sourceChain,
    fromTokenSymbol: tokenIn.symbol,
    fromAmount: formatUnits(t.inputAmount, tokenIn.decimals),
    fromAmount64: t.inputAmount.toString(),
    toTokenAddress: t.outputToken,
    toTokenChain: destChain,
    toTokenSymbol: tokenOut.symbol,
    toAmount: t.status === 'filled' ? formatUnits(reportedOutput(t).amount, tokenOut.decimals) : null,
    minAmountOut: formatUnits(t.minAmountOut * minScale, tokenOut.decimals),
    minAmountOut64: t.minAmountOut.toString(),
    gasDrop: '0',
    gasDrop64: '0',
    swapRelayerFee: null,
    redeemRelayerFee: null,
    refundRelayerFee: '0',
    bridgeFee: '0',
    deadline: iso(Number(t.deadline) * 1000),
    initiatedAt: iso(t.createdAt),
    completedAt: done ? iso(t.updatedAt) : null,
    statusUpdatedAt: iso(t.updatedAt),
    retries: 0,
    insufficientFees: false,
    clientStatus,
    status,
    fulfillTxHash: t.fillTxHash ?? null,
    redeemTxHash: null,
    // Named once the refund is mined, as the explorer indexes it: a cancelled order says CANCELED without it until then.
    refundTxHash: refunded ? (t.refundTxHash ?? null) : null,
    refundAmount: t.status === 'refunded' ? formatUnits(t.inputAmount, tokenIn.decimals) : null,
    referrerAddress: null,
    txs: [
      { txHash: t.sourceTxHash, goals: ['SEND'], scannerUrl: '' },
      ...(t.fillTxHash ? [{ txHash: t.fillTxHash, goals: ['SETTLE'], scannerUrl: '' }] : []),
      ...(refunded && t.refundTxHash ? [{ txHash: t.refundTxHash, goals: ['REFUND'], scannerUrl: '' }] : []),
    ],
  };
}
