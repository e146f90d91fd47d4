import { type Address, type Hex } from 'viem';
import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderQuote } from '../provider-quote';
import { type SwiftSwapRoute } from './mayan-swap-route';
import { swiftCalls } from './swift-calls';
import { SWIFT_MAX_DECIMALS } from './swift-fractional-amount';
import { swiftOrderFields } from './swift-order';
import { type SwiftQuote } from './swift-quote';
import { swiftRandomKey } from './swift-random-key';

/** A Swift quote as our ProviderQuote, with the wallet's calls built as swap-sdk v15.2.0 builds them. */
export function swiftProviderQuote(
  slice: QuoteSlice,
  quote: SwiftQuote,
  build: { forwarder: Address; referrer: Address | null; route: SwiftSwapRoute | null; random32: Hex },
): ProviderQuote {
  const order = swiftOrderFields(quote, {
    recipient: slice.recipient,
    refundTo: slice.refundTo,
    referrer: build.referrer,
    random: swiftRandomKey(quote, build.random32),
  });
  const calls = swiftCalls(slice, quote, build.forwarder, order, build.route);
  // The order enforces `minAmountOut` (swift-order.ts); `minReceivedBaseUnits` is Mayan's "minimum amount that
  // user receives after deducting relayer fees" (docs.mayan.finance /integration/quote-api). The leg's minimum
  // is the lower of the two, so it never promises more than the chain enforces, nor more than Mayan states.
  const orderFloor = order.minAmountOut * 10n ** BigInt(Math.max(0, quote.toDecimals - SWIFT_MAX_DECIMALS));
  return {
    provider: 'mayan',
    sliceId: slice.sliceId,
    expectedOutputRaw: quote.expectedOutputRaw,
    minimumOutputRaw: quote.minReceivedRaw < orderFloor ? quote.minReceivedRaw : orderFloor,
    // The quote prices nothing in USD except the relayer fee.
    inputUsd: null,
    outputUsd: null,
    feeUsd: quote.relayerFeeUsd,
    feeBreakdown: quote.relayerFeeUsd === null ? [] : [{ kind: 'provider', usd: quote.relayerFeeUsd }],
    lossUsd: null,
    etaSeconds: quote.etaSeconds,
    calls,
    providerRequestId: quote.quoteId,
    // The Swift order's own deadline: an order signed after it cannot be filled.
    validUntil: Number(quote.deadline) * 1000,
    trackingContext: {
      provider: 'mayan',
      fromChain: quote.fromChain.name,
      toChain: quote.toChain.name,
      targetDecimals: slice.target.decimals,
      swiftContract: quote.swiftContract,
    },
    // The referrer is paid on the destination out of the output on Swift V1, and out of the locked source asset on V2
    // (docs.mayan.finance /integration/referral; review D15), at the rate the order carries: capped by Swift version,
    // 0 when the quote did not echo a referrerBps (swift-order.ts), and then no fee at all.
    appFee:
      build.referrer === null || slice.appFeeBps === 0 || order.referrerBps === 0
        ? null
        : quote.swiftVersion === 'V2'
          ? {
              paidAs: 'source_transfer',
              bps: order.referrerBps,
              chainId: slice.source.chainId,
              token: slice.source.token,
              claim: null,
            }
          : {
              paidAs: 'destination_transfer',
              bps: order.referrerBps,
              chainId: slice.target.chainId,
              token: slice.target.token,
              claim: null,
            },
  };
}
