import { type LegFees } from '@svc/contract';
import { type QuotedFees, type QuotedSliceExecution } from '../intent-session/intent-session.events';

/** A leg no provider carries (a no-op transfer, or tokens already in place): it pays nobody. */
export const NO_FEES: LegFees = { providerFees: null, serviceFee: null, partnerMarkup: null };

/**
 * A provider slice's fees, as quoted, for the attempt to record at prepare (the snapshot's StatusLeg.fees). The
 * providers are asked for serviceFeeBps + markupBps of the input and may charge less (`collectedBps`, e.g. a capped
 * rate); each share is its part of what is charged: input × bps / 10 000 × collectedBps / (service + markup), rounded
 * down once, in bigint (the markup share is the session's `markupOwed` to the unit).
 */
export function sliceFees(
  fees: Pick<QuotedFees, 'serviceFeeBps' | 'markupBps'>,
  slice: Pick<QuotedSliceExecution, 'provider' | 'appFee' | 'feeUsd' | 'feeBreakdown' | 'quotedWith'>,
): LegFees {
  const askedBps = fees.serviceFeeBps + fees.markupBps;
  const collectedBps = Math.min(slice.appFee?.bps ?? 0, askedBps);
  const input = BigInt(slice.quotedWith.source.amount);
  const share = (bps: number) =>
    bps === 0
      ? null
      : {
          bps,
          collectedBps,
          chainId: slice.quotedWith.source.chainId,
          token: slice.quotedWith.source.token,
          rawAmount: ((input * BigInt(bps * collectedBps)) / (BigInt(askedBps) * 10_000n)).toString(),
          paidAs: slice.appFee?.paidAs ?? null,
        };
  return {
    providerFees: {
      provider: slice.provider,
      totalUsd: slice.feeUsd ?? null,
      lines: (slice.feeBreakdown ?? []).map((line) => ({ kind: line.kind, usd: line.usd })),
    },
    serviceFee: share(fees.serviceFeeBps),
    partnerMarkup: share(fees.markupBps),
  };
}
