import { type ProviderName, type QuoteRequest } from '@svc/contract';
import {
  allocate,
  type AllocationResult,
  decideQuote,
  evaluateLeg,
  type QuoteDecision,
  type SliceQuote,
} from '@svc/domain';
import {
  type AppFeeCollection,
  type ProviderCall,
  type ProviderQuote,
  type QuoteFailure,
  type QuoteFailureReason,
  type QuoteSlice,
  type RoutableProvider,
  type TrackingContext,
} from '@svc/providers';
import { type Address } from 'viem';
import { PROVIDER_ORDER } from '../quoting.options';
import { type GatheredQuotes, quoteKey } from './gather-quotes';
import { toAllocationInput } from './to-allocation-input';
import { toQuoteSlices } from './to-quote-slices';

/** Test support for the quote use case's specs, the providers' side: realistic answers, and the route up to the decision. */

export const QUOTED_AT = 1_700_000_000_000;

/** The contract each provider's deposit goes to (and its approval's spender), from the providers' published lists. */
export const DEPOSIT_CONTRACT: Record<RoutableProvider, Address> = {
  relay: '0x4cd00e387622c35bddb9b4c962c136462338bc31',
  across: '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A',
  mayan: '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2',
};

/** Each provider's cost, so the providers' answers differ the way real ones do (across cheapest, mayan dearest). */
const COST_BPS: Record<RoutableProvider, bigint> = { relay: 10n, across: 5n, mayan: 20n };
const ETA_SECONDS: Record<RoutableProvider, number> = { relay: 8, across: 4, mayan: 30 };

/**
 * A provider's answer as its adapter returns it: approval then deposit on the source chain, the output net of the
 * provider's cost and the app fee, the minimum at the slippage, and the app fee paid the way that provider pays it
 * (relay: off-chain balance; across: on the destination; mayan Swift V2: out of the source asset).
 */
export function providerQuote(
  provider: RoutableProvider,
  slice: QuoteSlice,
  overrides: Partial<ProviderQuote> = {},
): ProviderQuote {
  const atPar =
    (slice.source.amount * 10n ** BigInt(slice.target.decimals)) / 10n ** BigInt(slice.source.decimals);
  const expected = (atPar * (10_000n - COST_BPS[provider] - BigInt(slice.appFeeBps))) / 10_000n;
  const minimum = (expected * BigInt(10_000 - slice.slippageBps)) / 10_000n;
  const inputUsd = Number(atPar) / 10 ** slice.target.decimals;
  const outputUsd = Number(expected) / 10 ** slice.target.decimals;
  const spender = DEPOSIT_CONTRACT[provider];
  const calls: ProviderCall[] = [
    {
      chainId: slice.source.chainId,
      to: slice.source.token,
      data: `0x095ea7b3000000000000000000000000${spender.slice(2).toLowerCase()}`,
      value: 0n,
      gas: null,
      kind: 'approve',
      approval: { token: slice.source.token, spender, amount: slice.source.amount },
    },
    {
      chainId: slice.source.chainId,
      to: spender,
      data: '0xad5425c6',
      value: 0n,
      gas: provider === 'across' ? 210_000n : null,
      kind: 'deposit',
    },
  ];
  return {
    provider,
    sliceId: slice.sliceId,
    expectedOutputRaw: expected,
    minimumOutputRaw: minimum,
    inputUsd,
    outputUsd,
    feeUsd: inputUsd - outputUsd,
    feeBreakdown: [{ kind: 'provider', usd: inputUsd - outputUsd }],
    lossUsd: 0,
    etaSeconds: ETA_SECONDS[provider],
    calls,
    providerRequestId: `${provider}-request-${slice.sliceId}`,
    validUntil: { relay: null, across: QUOTED_AT + 180_000, mayan: QUOTED_AT + 300_000 }[provider],
    trackingContext: trackingContext(provider, slice),
    appFee: slice.appFeeBps > 0 ? appFee(provider, slice) : null,
    ...overrides,
  };
}

function trackingContext(provider: RoutableProvider, slice: QuoteSlice): TrackingContext {
  const chains = { originChainId: slice.source.chainId, destinationChainId: slice.target.chainId };
  if (provider === 'relay') return { provider, requestId: `relay-request-${slice.sliceId}`, ...chains };
  if (provider === 'across') return { provider, ...chains };
  const names: Record<number, string> = { 1: 'ethereum', 8453: 'base', 42161: 'arbitrum' };
  const name = (chainId: number) => names[chainId] ?? `${chainId}`;
  return {
    provider,
    fromChain: name(slice.source.chainId),
    toChain: name(slice.target.chainId),
    targetDecimals: slice.target.decimals,
  };
}

function appFee(provider: RoutableProvider, slice: QuoteSlice): AppFeeCollection {
  if (provider === 'relay')
    return {
      paidAs: 'offchain_balance',
      bps: slice.appFeeBps,
      chainId: null,
      token: null,
      claim: 'POST /app-fees/{recipient}/claim',
    };
  if (provider === 'across')
    return {
      paidAs: 'destination_transfer',
      bps: slice.appFeeBps,
      chainId: slice.target.chainId,
      token: slice.target.token,
      claim: null,
    };
  return {
    paidAs: 'source_transfer',
    bps: slice.appFeeBps,
    chainId: slice.source.chainId,
    token: slice.source.token,
    claim: null,
  };
}

export function quoteFailure(
  provider: RoutableProvider,
  reasonCode: QuoteFailureReason,
  reason = `${provider} refused: ${reasonCode}`,
): QuoteFailure {
  return { provider, reasonCode, reason, httpStatus: null, providerCode: null };
}

export type Respond = (provider: RoutableProvider, slice: QuoteSlice) => ProviderQuote | QuoteFailure;

/** gatherQuotes' result for answers known in advance (every provider answered in time). */
export function gathered(
  requests: { provider: RoutableProvider; slice: QuoteSlice }[],
  respond: Respond,
): GatheredQuotes {
  const providerQuotes = new Map<string, ProviderQuote>();
  const asked = new Map<string, QuoteSlice>();
  const quotes = requests.map(({ provider, slice }): SliceQuote => {
    asked.set(quoteKey(slice.sliceId, provider), slice);
    const answer = respond(provider, slice);
    if ('reasonCode' in answer)
      return {
        sliceId: slice.sliceId,
        provider,
        outcome: { ok: false, reasonCode: answer.reasonCode, reason: answer.reason },
      };
    providerQuotes.set(quoteKey(slice.sliceId, provider), answer);
    return {
      sliceId: slice.sliceId,
      provider,
      outcome: {
        ok: true,
        expectedOutputRaw: answer.expectedOutputRaw,
        minimumOutputRaw: answer.minimumOutputRaw,
        inputUsd: answer.inputUsd,
        outputUsd: answer.outputUsd,
        feeUsd: answer.feeUsd,
        etaSeconds: answer.etaSeconds,
      },
    };
  });
  return { quotes, providerQuotes, asked };
}

export interface Routed {
  allocation: AllocationResult;
  requests: { provider: RoutableProvider; slice: QuoteSlice }[];
  gathered: GatheredQuotes;
  decision: QuoteDecision;
}

/** The quote use case up to the decision, as QuoteIntentService runs it, with the providers answering `respond`. */
export function routeQuote(
  request: QuoteRequest,
  options: {
    respond?: Respond;
    providers?: readonly ProviderName[];
    fee?: { bps: number; recipient: string | null };
  } = {},
): Routed {
  const providers = options.providers ?? PROVIDER_ORDER;
  const allocation = allocate(toAllocationInput(request));
  const requests = toQuoteSlices(request, allocation, providers, options.fee ?? { bps: 0, recipient: null });
  const answers = gathered(requests, options.respond ?? ((p, s) => providerQuote(p, s)));
  const legs = allocation.legs.map((leg) => evaluateLeg(leg, providers, answers.quotes));
  return {
    allocation,
    requests,
    gathered: answers,
    decision: decideQuote(legs, request.allowPartial, PROVIDER_ORDER),
  };
}

/** Answers as `respond`, except that `provider` refuses the slices `refused` names. */
export function refusing(
  provider: RoutableProvider,
  refused: (sliceId: string) => boolean,
  reasonCode: QuoteFailureReason = 'route_unavailable',
  respond: Respond = (p, s) => providerQuote(p, s),
): Respond {
  return (p, s) => (p === provider && refused(s.sliceId) ? quoteFailure(p, reasonCode) : respond(p, s));
}

/** Every provider refuses every slice. */
export const refuseAll: Respond = (p) => quoteFailure(p, 'route_unavailable');
