import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { queryObject, readString } from '../http/request-fields';
import { type SandboxContext } from '../sandbox-context';
import { relayStatus } from './relay-status';

/**
 * `GET /intents/status/v3?requestId=`: `waiting` until the watcher indexes the deposit, then the fill's
 * progress; `txHashes` carries the fill (or refund) transaction.
 */
export function relayIntentStatusHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const requestId = readString(queryObject(request.query), 'requestId');
    const quote = context.quotes.relayQuote(requestId);
    const transfer = context.transfers.relayByRequestId(requestId);
    const outTx = transfer?.fillTxHash ?? transfer?.refundTxHash;
    return Promise.resolve(
      jsonReply(200, {
        status: relayStatus(transfer?.status),
        ...(transfer?.failReason ? { details: transfer.failReason } : {}),
        inTxHashes: transfer ? [transfer.sourceTxHash] : [],
        txHashes: outTx ? [outTx] : [],
        updatedAt: transfer?.updatedAt ?? quote?.createdAt ?? context.now(),
        originChainId: quote?.quote.tokenIn.chainId,
        destinationChainId: quote?.quote.tokenOut.chainId,
        quoteCreatedAt: quote?.createdAt,
      }),
    );
  };
}
