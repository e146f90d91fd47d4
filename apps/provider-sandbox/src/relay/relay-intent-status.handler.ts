import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { queryObject, readString } from '../http/request-fields';
import { type SandboxContext } from '../sandbox-context';
import { relayTransferStatus } from './relay-status';

/**
 * `GET /intents/status/v3?requestId=`: `waiting` until the watcher indexes the deposit, then the fill's
 * progress; `txHashes` carries the fill (or refund) transaction. A failure or refund names its `failReason` (and a
 * failed refund its `refundFailReason`), the codes Relay returns here since 2026-08-07 (relay-docs changelog.mdx);
 * `details` is free text.
 */
export function relayIntentStatusHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const requestId = readString(queryObject(request.query), 'requestId');
    const quote = context.quotes.relayQuote(requestId);
    const transfer = context.transfers.relayByRequestId(requestId);
    const outTx = transfer?.fillTxHash ?? transfer?.refundTxHash;
    return Promise.resolve(
      jsonReply(200, {
        status: relayTransferStatus(transfer),
        ...(transfer?.failReason
          ? {
              details: `the request did not complete: ${transfer.failReason}`,
              failReason: transfer.failReason,
            }
          : {}),
        ...(transfer?.refundFailReason ? { refundFailReason: transfer.refundFailReason } : {}),
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
