import { type ChainAction, type ChainCall, type PerLegPreview, type QuotePlan } from '@svc/contract';
import { type DraftCall } from './draft-call';

/** One quote plan of a chain action before numbering: a provider slice (approvals first) or a no-op transfer. */
export interface QuoteDraft {
  provider: string;
  outputTargetId: string;
  calls: DraftCall[];
  preview: PerLegPreview;
}

/**
 * Numbers the chain's calls 0..n-1 in execution order and lays them out for the submit method: one atomic
 * `wallet_sendCalls` batch when the wallet reported atomic support for this chain, else ordered transactions.
 */
export function toChainAction(chainId: number, quotes: readonly QuoteDraft[], atomic: boolean): ChainAction {
  const calls: ChainCall[] = [];
  const quotePlans = quotes.map((quote, quoteIndex): QuotePlan => {
    const callStart = calls.length;
    for (const { to, data, value, gas } of quote.calls) {
      const callIndex = calls.length;
      calls.push({
        to,
        data,
        value,
        gas,
        callId: `chain:${chainId}:call:${callIndex}`,
        callIndex,
        quoteIndex,
      });
    }
    const deposit = quote.calls.findIndex((call) => call.kind === 'deposit');
    return {
      provider: quote.provider,
      callCount: quote.calls.length,
      callStart,
      quoteIndex,
      outputTargetId: quote.outputTargetId,
      transactionCount: quote.calls.length,
      primaryCallIndex: callStart + (deposit >= 0 ? deposit : quote.calls.length - 1),
      sourceTokenCount: 1,
    };
  });
  return {
    chainId,
    // Several providers on one chain (several legs, or a no-op transfer beside a route) are named in plan order.
    provider: [...new Set(quotes.map((quote) => quote.provider))].join('+'),
    submitMethod: atomic ? 'wallet_sendCalls' : 'sendTransaction',
    atomicRequired: atomic,
    calls: atomic ? calls : null,
    transactions: atomic ? null : calls.map((call) => ({ chainId, ...call })),
    transactionCount: calls.length,
    quoteCount: quotePlans.length,
    quotePlans,
    perLegPreview: quotes.map((quote) => quote.preview),
  };
}
