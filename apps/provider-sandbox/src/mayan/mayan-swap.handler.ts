import { formatUnits } from 'viem';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { reportedOutput } from '../scenarios/reported-output';
import { mayanChainById } from './mayan-chains';
import { mayanClientStatus } from './mayan-client-status';
import { SwapNotFoundError } from './swap-not-found-error';

const SWIFT_DECIMALS = 8;

/**
 * Explorer `GET /swap/trx/{sourceTxHash | orderHash}`: 404 until the watcher indexes the order; `toAmount`
 * is the delivered amount in human units. Chain fields are Wormhole ids as strings. With several orders in one
 * transaction, the order hash finds each and the transaction hash the first.
 */
export function mayanSwapHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const hash = request.params.hash ?? '';
    const t = context.transfers.mayanBySourceTx(hash);
    if (!t) throw new SwapNotFoundError(hash);
    const tokenIn = context.tokens.find(t.sourceChainId, t.inputToken)!;
    const tokenOut = context.tokens.find(t.destinationChainId, t.outputToken)!;
    const sourceChain = String(mayanChainById(t.sourceChainId)?.wormholeId);
    const destChain = String(mayanChainById(t.destinationChainId)?.wormholeId);
    const { clientStatus, status } = mayanClientStatus(t.status, t.scenario === 'cancel');
    const minScale = 10n ** BigInt(Math.max(0, tokenOut.decimals - SWIFT_DECIMALS));
    const iso = (ms: number) => new Date(ms).toISOString();
    const done = t.status === 'filled' || t.status === 'refunded';
    return Promise.resolve(
      jsonReply(200, {
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
        refundTxHash: t.refundTxHash ?? null,
        refundAmount: t.status === 'refunded' ? formatUnits(t.inputAmount, tokenIn.decimals) : null,
        referrerAddress: null,
        txs: [
          { txHash: t.sourceTxHash, goals: ['SEND'], scannerUrl: '' },
          ...(t.fillTxHash ? [{ txHash: t.fillTxHash, goals: ['SETTLE'], scannerUrl: '' }] : []),
          ...(t.refundTxHash ? [{ txHash: t.refundTxHash, goals: ['REFUND'], scannerUrl: '' }] : []),
        ],
      }),
    );
  };
}
