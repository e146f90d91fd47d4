import { ApiKeyMissingError } from '../http/api-key-missing-error';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type RelayTransfer } from '../ledger/transfer-record';
import { formatRate } from '../pricing/format-rate';
import { type SandboxContext } from '../sandbox-context';
import { reportedOutput } from '../scenarios/reported-output';
import { relayAmount } from './relay-amount';
import { relayTransferStatus } from './relay-status';

const FILTERS: Readonly<Record<string, (t: RelayTransfer, value: string) => boolean>> = {
  id: (t, v) => same(t.requestId, v),
  depositTxHash: (t, v) => same(t.sourceTxHash, v),
  fillTxHash: (t, v) => same(t.fillTxHash, v),
  refundTxHash: (t, v) => same(t.refundTxHash, v),
  user: (t, v) => same(t.depositor, v),
  recipient: (t, v) => same(t.recipient, v),
};

/**
 * `GET /requests/v3` (x-api-key required, any value): indexed requests with the actual output under
 * `data.route.actual.destination.outputCurrency` and the fill under `data.outTxs`.
 */
export function relayRequestsHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || key.trim() === '') throw new ApiKeyMissingError('x-api-key');
    const filters = Object.entries(FILTERS).flatMap(([name, test]) => {
      const value = request.query.get(name);
      return value ? [(t: RelayTransfer) => test(t, value)] : [];
    });
    const requests = context.transfers
      .ofProvider('relay')
      .filter((t) => filters.every((f) => f(t)))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((t) => relayRequest(context, t));
    return Promise.resolve(jsonReply(200, { requests, continuation: null }));
  };
}

function relayRequest(context: SandboxContext, transfer: RelayTransfer) {
  const record = context.quotes.relayQuote(transfer.requestId);
  const quote = record!.quote;
  const { prices } = context;
  const currencyIn = relayAmount(quote.tokenIn, quote.amountIn, prices);
  const quotedOut = relayAmount(quote.tokenOut, quote.expectedOut, prices, quote.minOut);
  const outTx = transfer.fillTxHash ?? transfer.refundTxHash;
  const outChainId = transfer.fillTxHash ? transfer.destinationChainId : transfer.sourceChainId;
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const delivered = transfer.status === 'filled';
  const actualAmount = reportedOutput(transfer).amount;
  const actualOut = relayAmount(quote.tokenOut, actualAmount, prices, quote.minOut);
  return {
    id: transfer.requestId,
    status: relayTransferStatus(transfer),
    user: transfer.depositor,
    recipient: transfer.recipient,
    sender: transfer.depositor,
    refundTo: record!.refundTo,
    data: {
      slippageTolerance: String(quote.slippageBps),
      ...(transfer.failReason ? { failReason: transfer.failReason } : {}),
      ...(transfer.refundFailReason ? { refundFailReason: transfer.refundFailReason } : {}),
      // The currency a refund paid (relay-kit packages/sdk/src/types/api.ts `refundCurrencyData`): the sandbox refunds
      // the input as it came, so its token on the origin chain.
      ...(transfer.refundTxHash
        ? { refundCurrencyData: relayAmount(quote.tokenIn, transfer.inputAmount, prices) }
        : {}),
      timeEstimate: quote.etaSeconds,
      inTxs: [
        {
          txHash: transfer.sourceTxHash,
          chainId: transfer.sourceChainId,
          block: Number(transfer.sourceBlockNumber),
          timestamp: seconds(transfer.createdAt),
          type: 'onchain',
          status: 'success',
        },
      ],
      outTxs: outTx
        ? [
            {
              txHash: outTx,
              chainId: outChainId,
              timestamp: seconds(transfer.updatedAt),
              type: 'onchain',
              status: 'success',
            },
          ]
        : [],
      route: {
        quoted: {
          origin: { inputCurrency: currencyIn, outputCurrency: currencyIn, router: 'relay' },
          destination: { inputCurrency: quotedOut, outputCurrency: quotedOut, router: 'relay' },
        },
        ...(delivered
          ? {
              actual: {
                origin: { inputCurrency: currencyIn, outputCurrency: currencyIn, router: 'relay' },
                destination: { inputCurrency: actualOut, outputCurrency: actualOut, router: 'relay' },
                rate: formatRate(
                  quote.amountIn,
                  quote.tokenIn.decimals,
                  actualAmount,
                  quote.tokenOut.decimals,
                ),
              },
            }
          : {}),
      },
    },
    requestType: 'user',
    features: [],
    createdAt: new Date(transfer.createdAt).toISOString(),
    updatedAt: new Date(transfer.updatedAt).toISOString(),
  };
}

function same(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}
