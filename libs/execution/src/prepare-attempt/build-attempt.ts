import { buildWalletAuthorization, type ChainRegistry, executionCommitment, randomNonce } from '@svc/chains';
import {
  attemptDeadlines,
  type AttemptLeg,
  type AttemptPreparedData,
  type IntentQuotedData,
  NO_FEES,
  type QuotedLegExecution,
  sliceFees,
} from '@svc/domain';
import { type Address } from 'viem';
import { buildChainActions, legTargets } from '../chain-actions';
import { type ExecutionOptions } from '../execution.options';
import { type PrepareAttempt } from './prepare-attempt.command';

/** Everything an attempt records: chain actions built now, the authorization over them, the tracking data. */
export async function buildAttempt(input: {
  attemptId: string;
  quote: IntentQuotedData;
  legs: QuotedLegExecution[];
  command: PrepareAttempt;
  options: ExecutionOptions;
  chains: ChainRegistry;
}): Promise<AttemptPreparedData> {
  const { quote, legs, command, options } = input;
  const now = command.now;
  const wallet = quote.request.walletAddress as Address;
  const recipient = quote.request.recipient as Address;
  const walletContext = command.body.walletContext ?? null;
  const targets = legTargets(quote.request, legs);
  const chainActions = await buildChainActions(
    {
      wallet,
      recipient,
      legs,
      targets,
      sources: quote.request.sources,
      chainName: (chainId) =>
        input.chains.has(chainId) ? input.chains.config(chainId).name : `chain ${chainId}`,
      walletCapabilities: walletContext?.walletCapabilities,
    },
    { chains: input.chains },
  );
  const deadlines = attemptDeadlines(
    now,
    options,
    legs.flatMap((l) => l.slices.map((s) => s.validUntil)),
  );
  const walletAuthorization = buildWalletAuthorization(
    {
      partnerId: quote.partnerId,
      intentSessionId: quote.intentSessionId,
      attemptId: input.attemptId,
      wallet,
      recipient,
      executionCommitment: executionCommitment(chainActions),
      nonce: randomNonce(),
      expiresAt: deadlines.authorizationExpiresAt,
    },
    options.authorizationDomain,
  );
  return {
    attemptId: input.attemptId,
    intentSessionId: quote.intentSessionId,
    partnerId: quote.partnerId,
    idempotencyKey: command.idempotencyKey,
    wallet,
    recipient,
    preparedAt: now,
    expiresAt: deadlines.expiresAt,
    evidenceDeadlineAt: deadlines.evidenceDeadlineAt,
    chainActions,
    walletAuthorization,
    legs: legs.map((leg, legIndex) => toAttemptLeg(leg, legIndex, targets[legIndex], quote)),
    walletContext,
  };
}

function toAttemptLeg(
  leg: QuotedLegExecution,
  legIndex: number,
  target: { chainId: number; address: string; symbol: string; decimals: number; targetId: string },
  quote: IntentQuotedData,
): AttemptLeg {
  return {
    legIndex,
    targetId: leg.targetId,
    provider: leg.provider,
    target: {
      chainId: target.chainId,
      address: target.address,
      symbol: target.symbol,
      decimals: target.decimals,
    },
    slices: [
      ...leg.slices.map((s) => ({
        sliceId: s.sliceId,
        sourceIndex: s.sourceIndex,
        sourceChainId: quote.request.sources[s.sourceIndex].chainId,
        noop: false,
        provider: s.provider,
        providerRequestId: s.providerRequestId,
        trackingContext: s.trackingContext,
        expectedOutputRaw: s.expectedOutputRaw,
        minimumOutputRaw: s.minimumOutputRaw,
        etaSeconds: s.etaSeconds ?? null,
        fees: sliceFees(quote.fees, s),
      })),
      ...leg.noopSlices.map((s) => ({
        sliceId: s.sliceId,
        sourceIndex: s.sourceIndex,
        sourceChainId: s.chainId,
        noop: true,
        provider: null,
        providerRequestId: null,
        trackingContext: null,
        expectedOutputRaw: s.rawAmount,
        minimumOutputRaw: s.rawAmount,
        fees: NO_FEES,
      })),
    ],
  };
}
